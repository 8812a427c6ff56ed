import { checkShape } from './harness/check-shape.js';
import { matrix } from './matrix.js';

for (const shape of await matrix.found()) checkShape(shape);
