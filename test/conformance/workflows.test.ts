import { checkShape } from './harness/check-shape.js';
import { shape as plannedRun } from './shapes/planned-run.js';
import { shape as workflow } from './shapes/workflow.js';

for (const shape of [workflow, plannedRun]) checkShape(shape);
