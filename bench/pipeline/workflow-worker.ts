/**
 * One way of the workflow cell in a process of its own, compiled as a built application runs (see
 * ../compiled.ts and ../workflow-steps.ts). Usage: node workflow-worker.mjs <size> <rounds> <way>;
 * prints the way's median µs a step as one JSON line.
 */
import { measureWorkflowWay, workflowWays, type WorkflowWay } from '../workflow-steps.js';

const [size = '100', rounds = '25', way = ''] = process.argv.slice(2);
if (!(workflowWays as readonly string[]).includes(way))
  throw new Error(`no way '${way}': name one of ${workflowWays.join(', ')}`);
const microseconds = await measureWorkflowWay(Number(size), Number(rounds), way as WorkflowWay);
process.stdout.write(`${JSON.stringify(microseconds)}\n`);
