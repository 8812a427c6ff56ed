import { checkShape } from './harness/check-shape.js';
import { shape as nativeTools } from './shapes/native-tools.js';
import { shape as parallelTools } from './shapes/parallel-tools.js';
import { shape as toolRefusal } from './shapes/tool-refusal.js';
import { shape as toolRetries } from './shapes/tool-retries.js';

for (const shape of [nativeTools, parallelTools, toolRetries, toolRefusal]) checkShape(shape);
