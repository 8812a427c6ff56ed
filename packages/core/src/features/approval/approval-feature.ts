import type { ApprovalDecision, PendingApproval } from '../../kernel/protocol/approval.js';
import type { ToolCallRequest } from '../../kernel/protocol/message.js';
import type {
  DecidedStep,
  Feature,
  FeatureHooks,
  ResumeAt,
  ToolCheck,
} from '../../kernel/run/seam/feature.js';
import { traceApprovalRequested, traceApprovalResolved } from './approval-events.js';
import { approvalsNeeded, hasApprovalGates } from './approval-gates.js';

/**
 * Approvals as a feature of the run: a call whose tool (or handoff) needs a person's approval for
 * its arguments pauses the turn before its step runs (`approval_requested`); the resumed turn
 * runs the step with the people's decisions (`approval_resolved`): approved calls run, rejected
 * ones are answered as refused, edited ones run with the new arguments.
 */
export const approvalFeature: Feature = {
  name: 'approvals',
  version: 2,
  // Nothing to keep per run: the gates are the agents' own.
  forRun: () => approvalHooks,
};

const approvalHooks: FeatureHooks = {
  appliesTo: hasApprovalGates,
  toolCheck({ agent, response, session }) {
    if (response.toolCalls.length === 0) return undefined;
    return approvalsNeeded(agent, response, session).then(pending =>
      pending === undefined || pending.length === 0 ? undefined : pendingApprovalCheck(pending),
    );
  },
  pause({ pending, record }) {
    for (const approval of pending) traceApprovalRequested(record, approval);
  },
  resume: decidedStep,
};

/**
 * The decision's check of the calls that need approval: the step waits when one of the calls that
 * will run is among them (not a handoff that is ignored).
 */
export function pendingApprovalCheck(approvals: readonly PendingApproval[]): ToolCheck {
  return {
    on: 'running',
    check(step) {
      const running = new Set(step.toolCalls.map(call => call.callId));
      if (step.handoff !== undefined) running.add(step.handoff.call.callId);
      const pending = approvals.filter(approval => running.has(approval.callId));
      if (pending.length === 0) return undefined;
      const names = pending
        .map(approval => `'${approval.toolName}' (${approval.callId})`)
        .join(', ');
      return {
        kind: 'interrupt',
        reason: `${names} need${pending.length === 1 ? 's' : ''} a person's approval`,
        approvals: { pending, step },
      };
    },
  };
}

/**
 * The paused step with the decisions applied: each traced, the rejected calls refused (the model
 * reads why), the edited calls with their new arguments.
 */
function decidedStep({ paused, decisions, record }: ResumeAt): DecidedStep {
  const byCall = new Map(decisions.map(decision => [decision.callId, decision]));
  for (const approval of paused.pending) {
    const decision = byCall.get(approval.callId) as ApprovalDecision;
    traceApprovalResolved(record, approval, decision);
  }
  const refused: { call: ToolCallRequest; message: string }[] = [];
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
    refused.push({
      call,
      message: `The call was refused by ${who}${why}. It did not run; do not ask for it again, answer without it.`,
    });
    return undefined;
  };
  const { step } = paused;
  const handoff = step.handoff === undefined ? undefined : decided(step.handoff.call);
  if (step.handoff !== undefined && handoff === undefined) {
    for (const other of step.handoff.ignored)
      refused.push({ call: other, message: 'Ignored: only one handoff per turn.' });
  }
  const toolCalls = step.toolCalls.flatMap(call => decided(call) ?? []);
  return {
    step: {
      kind: 'run_tools',
      toolCalls,
      handoff:
        handoff === undefined || step.handoff === undefined
          ? undefined
          : { call: handoff, ignored: step.handoff.ignored },
      asked: step.asked.map(edited),
    },
    refused,
  };
}
