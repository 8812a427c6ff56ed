import type { ApprovalDecision, PendingApproval } from '../../kernel/protocol/approval.js';
import type { OpenSpan, RunTracer } from '../../kernel/trace/run-tracer.js';
import { defined } from '../../kernel/util/defined.js';

const resolved = { approve: 'approved', reject: 'rejected', edit: 'edited' } as const;

/** Traces a call or step that waits for a person: `approval_requested` under `span`. */
export function traceApprovalRequested(
  tracer: RunTracer,
  span: OpenSpan,
  approval: PendingApproval,
): void {
  tracer.point('approval_requested', span, {
    call_id: approval.callId,
    tool: approval.toolName,
    kind: approval.kind,
    args: approval.args,
  });
}

/**
 * Traces a person's decision on what waited (`approval_resolved` under `span`): the decision,
 * who, why, and the edited arguments.
 */
export function traceApprovalResolved(
  tracer: RunTracer,
  span: OpenSpan,
  approval: Pick<PendingApproval, 'callId' | 'toolName'>,
  decision: ApprovalDecision,
): void {
  tracer.point('approval_resolved', span, {
    call_id: approval.callId,
    tool: approval.toolName,
    decision: resolved[decision.decision],
    ...defined('by', decision.by),
    ...defined('reason', decision.reason),
    ...(decision.decision === 'edit' ? { args: decision.args } : {}),
  });
}
