import { checkShape } from './harness/check-shape.js';
import { aiSdkShape } from './shapes/ai-sdk-desk.js';

for (const shape of [aiSdkShape('generate'), aiSdkShape('stream')]) checkShape(shape);
