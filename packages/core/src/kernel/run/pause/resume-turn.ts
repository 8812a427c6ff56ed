import type { ApprovalDecision, PendingApproval } from '../../protocol/approval.js';
import type { PausedTurn } from '../turn/agent-outcome.js';
import type { AgentTurn } from '../turn/agent-turn.js';
import type { ToolStep } from '../turn/next-step.js';
import type { ResumedPhase } from '../tools/run-tool-calls.js';

/** The features that asked are told (they trace what waits), then the turn pauses on its step. */
export function pauseForApprovals(
  turn: AgentTurn,
  { pending, step }: { readonly pending: readonly PendingApproval[]; readonly step: ToolStep },
): void {
  turn.hooks.pause(turn.at.with({ pending }));
  const last = turn.state.steps.at(-1);
  turn.pause(pending, step, last?.index ?? 0, { thought: last?.react?.thought });
}

/**
 * Goes on from a pause: returns the step to run. A pause inside a delegated agent goes on in that
 * agent, the step's other calls handed back as they finished (`phase`). Otherwise the features
 * apply the decisions to the paused step (see the seam's `resume`).
 */
export function resumeTurn(
  turn: AgentTurn,
  paused: PausedTurn,
  decisions: readonly ApprovalDecision[],
): { readonly step: ToolStep; readonly phase?: ResumedPhase } {
  if (paused.delegate !== undefined) {
    const { callId, turn: inner, finished } = paused.delegate;
    return {
      step: paused.step,
      phase: { finished, delegate: { callId, resumed: { turn: inner, decisions } } },
    };
  }
  const { step, refused } = turn.hooks.resume(turn.at.with({ paused, decisions }));
  // A refused call is answered to the model, and does not run.
  for (const { call, message } of refused)
    turn.conversation.append(turn.mode.resultMessage(call, message, true));
  return { step };
}
