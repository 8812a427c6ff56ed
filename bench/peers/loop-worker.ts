/**
 * Measures one subject at one N in a process of its own, so that peak RSS is the subject's and
 * no framework warms the JIT or fills the heap for another. Prints JSON lines, the last one final.
 * Usage: node loop-worker.mjs <subject> <steps> [budgetMs] (compiled: see ../compiled.ts)
 */
import { measureCell } from './measure-cell.js';
import { isSubjectKey, subjects } from './registry.js';

export type { LoopSample } from './measure-cell.js';

const [key = '', stepsText = '', budgetText = '3000'] = process.argv.slice(2);
if (!isSubjectKey(key)) throw new Error(`Unknown subject '${key}'.`);
await measureCell(key, await subjects[key](), Number(stepsText), Number(budgetText));
