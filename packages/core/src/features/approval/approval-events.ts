import type { ApprovalDecision, PendingApproval } from '../../kernel/protocol/approval.js';
import type { RecordEvent } from '../../kernel/run/seam/feature.js';
import { defined } from '../../kernel/util/defined.js';

const resolved = { approve: 'approved', reject: 'rejected', edit: 'edited' } as const;

/** Traces a call or step that waits for a person: `approval_requested`. */
export function traceApprovalRequested(record: RecordEvent, approval: PendingApproval): void {
  record('approval_requested', {
    call_id: approval.callId,
    tool: approval.toolName,
    kind: approval.kind,
    args: approval.args,
  });
}

/**
 * Traces a person's decision on what waited (`approval_resolved`): the decision, who, why, and
 * the edited arguments.
 */
export function traceApprovalResolved(
  record: RecordEvent,
  approval: Pick<PendingApproval, 'callId' | 'toolName'>,
  decision: ApprovalDecision,
): void {
  record('approval_resolved', {
    call_id: approval.callId,
    tool: approval.toolName,
    decision: resolved[decision.decision],
    ...defined('by', decision.by),
    ...defined('reason', decision.reason),
    ...(decision.decision === 'edit' ? { args: decision.args } : {}),
  });
}
