import { checkShape } from './harness/check-shape.js';
import { shape as guardrails } from './shapes/guardrails.js';
import { shape as router } from './shapes/router.js';
import { shape as structuredOutput } from './shapes/structured-output.js';

for (const shape of [router, guardrails, structuredOutput]) checkShape(shape);
