import { ToolCallError, type ToolCallErrorKind } from '../../errors/tool-call-error.js';
import type { ToolCallOutcome } from '../../tool/execute-tool-call.js';
import type { FinishedCall } from '../turn/agent-outcome.js';
import type { PendingCall, SettledCall, ToolPhase } from '../tools/tool-phase.js';

/** The calls a resumed step had finished before the pause, with their outcomes, not run again. */
export function restoreFinished(
  { resumed, state }: ToolPhase,
  inOrder: readonly PendingCall[],
): Map<PendingCall, SettledCall> {
  const finished = new Map<PendingCall, SettledCall>();
  if (resumed === undefined) return finished;
  const byCall = new Map(resumed.finished.map(call => [call.callId, call]));
  const now = state.clock.now();
  for (const pending of inOrder) {
    const done = byCall.get(pending.call.callId);
    if (done === undefined) continue;
    pending.attempt = done.attempts;
    pending.startMs = now - done.durationMs;
    finished.set(pending, { pending, outcome: outcomeOf(done), endMs: now, chunks: [] });
  }
  return finished;
}

function outcomeOf(done: FinishedCall): ToolCallOutcome {
  if (done.error === undefined)
    return { ok: true, args: done.args, result: done.result, content: done.content };
  const error = new ToolCallError({
    kind: done.error.kind as ToolCallErrorKind,
    toolName: done.toolName,
    message: done.error.message,
  });
  return { ok: false, args: done.args, error, content: done.content };
}

/** A settled call as a paused run's state keeps it. */
export function finishedCall({ pending, outcome, endMs }: SettledCall): FinishedCall {
  return {
    callId: pending.call.callId,
    toolName: pending.call.toolName,
    args: outcome.args,
    ...(outcome.ok
      ? { result: outcome.result }
      : { error: { kind: outcome.error.kind, message: outcome.error.message } }),
    content: outcome.content,
    attempts: pending.attempt,
    durationMs: Math.max(0, endMs - pending.startMs),
  };
}
