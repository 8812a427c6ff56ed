import type { AnyAgent } from '../kernel/agent/agent.js';
import type { ApprovalDecision } from '../kernel/protocol/approval.js';
import { ConfigurationError } from '../kernel/errors/configuration-error.js';
import type { Message } from '../kernel/protocol/message.js';
import { checkDecisions, openState, type PausedRun } from '../kernel/run/frame/runner-api.js';
import type { PausedWorkflow } from './workflow-snapshot.js';

/** The format name and version a planned run's state carries; another version is refused. */
export const PLAN_STATE_FORMAT = 'agent-trace/plan-state' as const;
export const PLAN_STATE_VERSION = 1 as const;

/** A plan as the state keeps it: what the planner wrote and whether it was accepted. */
export interface PlanStateRecord {
  /** 1 for the first plan. */
  readonly revision: number;
  /** Why it was asked for. */
  readonly reason: 'request' | 'refused_plan' | 'step_failed';
  /** The plan as written (YAML or JSON text). */
  readonly text: string;
  readonly verdict: 'accepted' | 'refused';
  /** Why it was refused: file (`plan N`), line, column, and how to fix it. */
  readonly problems: readonly string[];
}

/**
 * A planned run (`planAndRun`) paused while its plan's workflow waits for a person (an approval
 * step, or an agent step's call), as plain, versioned JSON: `resumePlan` goes on from it, in this
 * process or another, with the same planner, tools and agents.
 */
export interface PlanStateSnapshot extends PausedWorkflow {
  readonly format: typeof PLAN_STATE_FORMAT;
  readonly version: typeof PLAN_STATE_VERSION;
  readonly run: PausedRun & { readonly request: string; readonly planner: string };
  /** The planner's conversation so far: a re-plan after the pause carries it on. */
  readonly messages: readonly Message[];
  /** Every plan so far; the last one is the workflow that waits. */
  readonly plans: readonly PlanStateRecord[];
  /** Re-plans used so far. */
  readonly replans: number;
  /** SHA-256 (HMAC-SHA-256 with a secret) of everything else, hex: a changed state is refused. */
  readonly integrity: string;
}

/**
 * Checks a planned run's state before it goes on: format, version, integrity, the planner, and one
 * decision per waiting step or call. Throws a `ConfigurationError` saying what is wrong.
 */
export async function openPlanState(
  value: unknown,
  planner: AnyAgent,
  decisions: readonly ApprovalDecision[],
  secret: string | undefined,
): Promise<PlanStateSnapshot> {
  const state = await openState<PlanStateSnapshot>(value, {
    format: PLAN_STATE_FORMAT,
    version: PLAN_STATE_VERSION,
    what: 'plan state',
    expected: "the 'state' of a planAndRun result that stopped with 'interrupted'",
    secret,
  });
  if (state.run.planner !== planner.name)
    throw new ConfigurationError({
      option: 'planner',
      message: `The plan state was made by planner '${state.run.planner}', not '${planner.name}': resume it with the same planner.`,
    });
  checkDecisions(state.pending, decisions);
  return state;
}
