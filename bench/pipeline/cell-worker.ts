/**
 * The bridge cells in a process of their own, compiled as a built application runs
 * (see ../compiled.ts): under the bench's own tsx, every function our code makes at run time went
 * through esbuild's `__name` helper, which neither a built application nor the frameworks' published
 * builds pay. Usage: node cell-worker.mjs <cell> <size> <rounds>; prints one JSON line. The workflow
 * cell has a worker of its own (workflow-worker.ts): one process a way.
 */
import { measureBridgeOverhead } from '../bridge-overhead.js';
import { measureLanggraphOverhead } from '../bridge-langgraph.js';
import { measureOpenaiAgentsOverhead } from '../bridge-openai-agents.js';

/** The cells this worker runs, by name: each measures at a size over rounds. */
const cells: Readonly<Record<string, (size: number, rounds: number) => Promise<unknown>>> = {
  'ai-sdk': measureBridgeOverhead,
  'openai-agents': measureOpenaiAgentsOverhead,
  langgraph: measureLanggraphOverhead,
};

const [name = '', size = '100', rounds = '5'] = process.argv.slice(2);
const cell = cells[name];
if (cell === undefined)
  throw new Error(`no cell '${name}': name one of ${Object.keys(cells).join(', ')}`);
process.stdout.write(`${JSON.stringify(await cell(Number(size), Number(rounds)))}\n`);
