import type { AnyAgent } from '../kernel/agent/agent.js';
import type { ApprovalDecision } from '../kernel/protocol/approval.js';
import type { PlanCatalog } from './plan-prompt.js';
import type { Workflow } from './workflow.js';
import type { PlanStateRecord, PlanStateSnapshot } from './plan-snapshot.js';
import type { ResumeOnceOptions } from '../kernel/run/frame/runner-api.js';
import type { RunOptions } from '../runner/run-options.js';
import type { WorkflowResult, WorkflowRunOptions } from './run-workflow.js';

/** Options of `planAndRun`: what plans may use, how many there may be, and the run's options. */
export interface PlanAndRunOptions extends WorkflowRunOptions, Pick<RunOptions, 'forkedFrom'> {
  /** The tools plans may call. @defaultValue none */
  tools?: readonly PlanCatalog['tools'][number][];
  /** The agents plans may run. @defaultValue none */
  agents?: readonly AnyAgent[];
  /** How many plans the planner may write in all, refused ones included. @defaultValue 3 */
  maxPlans?: number;
  /** How many times a failed step may lead to a new plan. @defaultValue 1 */
  maxReplans?: number;
}

/**
 * Options of `resumePlan`: a decision per waiting approval step (its name is the call id) and per
 * call a paused agent step waits for, the same tools and agents, and the run's options.
 */
export interface ResumePlanOptions extends PlanAndRunOptions, ResumeOnceOptions {
  decisions: readonly ApprovalDecision[];
}

/** One plan the planner wrote: checked, and run when accepted. */
export interface PlanRecord extends PlanStateRecord {
  /** The workflow an accepted plan became. */
  readonly workflow?: Workflow;
  /** How its workflow ran: each step's record. */
  readonly steps?: WorkflowResult['steps'];
  readonly status?: WorkflowResult['status'];
}

/**
 * What `planAndRun` did: the last workflow's result, and every plan. Stopped `interrupted` (the
 * plan's workflow waits for a person), it has the `state` `resumePlan` goes on from.
 */
export interface PlanResult extends Omit<WorkflowResult, 'state'> {
  readonly plans: readonly PlanRecord[];
  readonly state: PlanStateSnapshot | undefined;
}
