import { checkShape } from './harness/check-shape.js';
import { shape as cassetteModel } from './shapes/cassette-model.js';
import { shape as reactMode } from './shapes/react-mode.js';
import { shape as streaming } from './shapes/streaming.js';

for (const shape of [streaming, reactMode, cassetteModel]) checkShape(shape);
