import { checkShape } from './harness/check-shape.js';
import { shape as budgetStop, sharedBudget } from './shapes/budget-stop.js';

for (const shape of [budgetStop, sharedBudget]) checkShape(shape);
