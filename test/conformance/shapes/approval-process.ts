/**
 * One process of the approval row: `pause <trace> <state>` runs the desk until it pauses and
 * keeps its state; `resume <trace> <state> <approve|reject|edit>` resumes it with that decision.
 * A last argument `fresh` gives each process counting ids and a stepping clock of its own, both
 * starting over, as a test's new process has.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resume, run, sequentialIds, steppingClock } from '@agent-trace/core';
import type { ApprovalDecision } from '@agent-trace/core/approval';
import { jsonlSink } from '@agent-trace/trace';
import { build } from './approval.js';

const [step, trace, stateFile, decision, fresh] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string | undefined,
];
const sink = jsonlSink(trace);
const own = fresh === 'fresh' ? { ids: sequentialIds(), clock: steppingClock() } : {};
if (step === 'pause') {
  const paused = await run(build(), 'Refund order 42 in full', { trace: sink, ...own });
  if (paused.stopReason !== 'interrupted')
    throw new Error(`expected a pause, got ${paused.stopReason}`);
  // What a service keeps until a person decides: the state, and the call that waits.
  const callId = paused.interruptions[0]?.callId;
  writeFileSync(stateFile, JSON.stringify({ state: paused.state, callId }));
} else {
  const { state, callId } = JSON.parse(readFileSync(stateFile, 'utf8')) as {
    state: Parameters<typeof resume>[1];
    callId: string;
  };
  const decisions: Record<string, ApprovalDecision> = {
    approve: { callId, decision: 'approve', by: 'ana' },
    reject: { callId, decision: 'reject', by: 'ana', reason: 'over the limit' },
    edit: { callId, decision: 'edit', by: 'ana', args: { order: 42, amount: 50 } },
  };
  const done = await resume(build(undefined, 'resume'), state, {
    decisions: [decisions[decision]!],
    trace: sink,
    ...own,
  });
  if (done.stopReason !== 'completed')
    throw new Error(`expected completed, got ${done.stopReason}`);
}
await sink.close();
