/**
 * The example features in one run, traced to JSONL:
 *
 *   pnpm features-example [--trace <file>]
 *
 * Then `agent-trace replay <file>` shows the date note and the scrub as transforms, the scrub's
 * own event and the quota's refusal in the quota's own words, and `agent-trace rerun <file>
 * --agent examples/features/desk.ts` says same.
 */
import { run } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import { desk, features } from './desk.js';

const at = process.argv.indexOf('--trace');
const file =
  at === -1 ? 'traces/features.jsonl' : (process.argv[at + 1] ?? 'traces/features.jsonl');
const result = await run(desk(), 'What are customer 7’s open orders?', {
  features,
  trace: jsonlSink(file),
});
process.stdout.write(`${result.output}\n`);
for (const call of result.toolCalls)
  if (call.error !== undefined) process.stdout.write(`refused: ${call.toolName}: ${call.error}\n`);
process.stdout.write(`Trace: ${file}\nReplay it: npx -y pnpm@10 agent-trace replay ${file}\n`);
