/**
 * The support desk, start to end, with no key:
 *
 *   pnpm support-desk [--trace <file>]
 *
 * 1. Ten customers hold their conversations with the desk (up to eight turns each), recorded to
 *    one JSONL trace.
 * 2. Each conversation is rerun against today's desk: all the same, with no model call.
 * 3. Rerun against the desk with a planted policy change: only the conversations that asked for a
 *    refund diverge, each at the turn it first did.
 * 4. The multi-turn eval of today's desk against the changed one names the customers it broke.
 */
import { compareEvals, converse, runEval } from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, rerunConversation } from '@agent-trace/trace';
import { customers, customerUser } from './customers.js';
import { deskFeatures, supportDesk } from './desk.js';
import { deskEval } from './desk-eval.js';
import { plantedPolicies } from './policies.js';

const at = process.argv.indexOf('--trace');
const file =
  at === -1 ? 'traces/support-desk.jsonl' : (process.argv[at + 1] ?? 'traces/support-desk.jsonl');
const print = (line: string) => process.stdout.write(`${line}\n`);

const trace = jsonlSink(file);
for (const customer of customers) {
  const held = await converse(supportDesk(), customerUser(customer), {
    id: customer.id,
    trace,
    features: deskFeatures(),
    maxTurns: 8,
  });
  print(
    `${customer.id.padEnd(6)} ${held.turns.length} turns, ${held.stopReason.replaceAll('_', ' ')}`,
  );
}
await trace.close();
print(`Trace: ${file}\n`);

// A desk whose model has no answers of its own: a rerun answers from the recording.
const replaying = () => supportDesk(fakeLLM([]));
for (const [name, features] of [
  ['today', deskFeatures()],
  ['planted', deskFeatures(plantedPolicies)],
] as const) {
  const changed: string[] = [];
  for (const customer of customers) {
    const report = await rerunConversation(file, replaying(), {
      conversationId: customer.id,
      run: { features },
    });
    const first = report.firstDivergence;
    if (first !== undefined) changed.push(`${customer.id} at turn ${first.turn} of ${first.of}`);
  }
  print(
    `rerun against ${name}'s desk: ${changed.length === 0 ? 'all the same' : `diverged: ${changed.join(', ')}`}`,
  );
}

const comparison = compareEvals(
  await runEval(deskEval()),
  await runEval(deskEval(plantedPolicies)),
);
const goal = comparison.scorers.find(each => each.scorer === 'goal_reached');
print(`\nthe planted change broke: ${goal?.regressed.map(each => each.id).join(', ') ?? 'nobody'}`);
