/**
 * One process of the approval row: `pause <trace> <state>` runs the desk until it pauses and
 * keeps its state; `resume <trace> <state> <approve|reject|edit>` resumes it with that decision.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resume, run } from '@agent-trace/core';
import type { ApprovalDecision } from '@agent-trace/core/approval';
import { jsonlSink } from '@agent-trace/trace';
import { build } from './approval.js';

const [step, trace, stateFile, decision] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const sink = jsonlSink(trace);
if (step === 'pause') {
  const paused = await run(build(), 'Refund order 42 in full', { trace: sink });
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
  });
  if (done.stopReason !== 'completed')
    throw new Error(`expected completed, got ${done.stopReason}`);
}
await sink.close();
