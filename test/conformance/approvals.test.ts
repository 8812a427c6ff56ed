import { checkShape } from './harness/check-shape.js';
import { approvalShapes } from './shapes/approvals.js';

for (const shape of approvalShapes) checkShape(shape);
