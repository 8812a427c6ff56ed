import { checkShape } from './harness/check-shape.js';
import { matrix } from './matrix.js';

for (const shape of await matrix.conversations()) checkShape(shape);
