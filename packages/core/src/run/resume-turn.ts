import type { ApprovalDecision, PendingApproval } from '../approval/approval.js';
import type { ToolCallRequest } from '../protocol/message.js';
import { traceApprovalRequested, traceApprovalResolved } from './approval-events.js';
import type { PausedTurn } from './agent-outcome.js';
import type { AgentTurn } from './agent-turn.js';
import type { ToolStep } from './next-step.js';
import type { ResumedPhase } from './run-tool-calls.js';

/** Traces the calls that wait for approval and pauses the turn on their step. */
export function requestApprovals(
  turn: AgentTurn,
  { pending, step }: { readonly pending: readonly PendingApproval[]; readonly step: ToolStep },
): void {
  for (const approval of pending)
    traceApprovalRequested(turn.state.tracer, turn.agentSpan, approval);
  const last = turn.state.steps.at(-1);
  turn.pause(pending, step, last?.index ?? 0, { thought: last?.react?.thought });
}

/**
 * Goes on from a pause: returns the step to run. A pause inside a delegated agent goes on in that
 * agent, the step's other calls handed back as they finished (`phase`). Otherwise each decision is
 * traced, the rejected calls are answered as refused (the model reads why), and the edited calls
 * get their new arguments.
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
  return { step: decidedStep(turn, paused, decisions) };
}

function decidedStep(
  turn: AgentTurn,
  paused: PausedTurn,
  decisions: readonly ApprovalDecision[],
): ToolStep {
  const byCall = new Map(decisions.map(decision => [decision.callId, decision]));
  traceDecisions(turn, paused.pending, byCall);
  /** The call as it runs: with the edited arguments, when it was edited. */
  const edited = (call: ToolCallRequest): ToolCallRequest => {
    const decision = byCall.get(call.callId);
    return decision?.decision === 'edit'
      ? { ...call, argumentsText: JSON.stringify(decision.args) ?? 'null' }
      : call;
  };
  /** The call to run, or undefined when it was rejected: it is answered as refused. */
  const decided = (call: ToolCallRequest): ToolCallRequest | undefined => {
    const decision = byCall.get(call.callId);
    if (decision?.decision !== 'reject') return edited(call);
    const who = decision.by ?? 'a person';
    const why = decision.reason === undefined ? '' : `: ${decision.reason}`;
    turn.conversation.append(
      turn.mode.resultMessage(
        call,
        `The call was refused by ${who}${why}. It did not run; do not ask for it again, answer without it.`,
        true,
      ),
    );
    return undefined;
  };
  const { step } = paused;
  const handoff = step.handoff === undefined ? undefined : decided(step.handoff.call);
  if (step.handoff !== undefined && handoff === undefined) {
    for (const other of step.handoff.ignored)
      turn.conversation.append(
        turn.mode.resultMessage(other, 'Ignored: only one handoff per turn.', true),
      );
  }
  return {
    kind: 'run_tools',
    toolCalls: step.toolCalls.flatMap(call => decided(call) ?? []),
    handoff:
      handoff === undefined || step.handoff === undefined
        ? undefined
        : { call: handoff, ignored: step.handoff.ignored },
    asked: step.asked.map(edited),
  };
}

/** An `approval_resolved` event for each pending call: the decision, who, why, edited arguments. */
function traceDecisions(
  turn: AgentTurn,
  pending: readonly PendingApproval[],
  byCall: ReadonlyMap<string, ApprovalDecision>,
): void {
  for (const approval of pending) {
    const decision = byCall.get(approval.callId) as ApprovalDecision;
    traceApprovalResolved(turn.state.tracer, turn.agentSpan, approval, decision);
  }
}
