/**
 * `@agent-trace/core/approval`: what a tool, handoff or workflow step that needs a person's
 * approval is given and gives back, and where the use of paused states is recorded so each
 * resumes once. A run pauses with `interrupted`; `resume` (from `@agent-trace/core`) goes on.
 */
export type {
  ApprovalContext,
  ApprovalDecision,
  ApprovalKind,
  NeedsApproval,
  PendingApproval,
} from './kernel/protocol/approval.js';
export {
  memoryResumeLedger,
  StateAlreadyResumedError,
  type ResumeClaim,
  type ResumeLedger,
} from './kernel/trace/resume-ledger.js';
export { RUN_STATE_FORMAT, RUN_STATE_VERSION } from './kernel/run/pause/run-snapshot.js';
export type { RunStateSnapshot } from './kernel/run/pause/run-snapshot.js';
