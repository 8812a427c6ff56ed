import type { ApprovalDecision, PendingApproval } from '../kernel/protocol/approval.js';
import { ConfigurationError } from '../kernel/errors/configuration-error.js';
import type { WorkflowStepRecord } from './step-record.js';
import type { Workflow } from './workflow.js';
import {
  checkDecisions,
  openState,
  type PausedRun,
  type PausedTurn,
} from '../kernel/run/frame/runner-api.js';

/** The format name and version a workflow state carries; a state of another version is refused. */
export const WORKFLOW_STATE_FORMAT = 'agent-trace/workflow-state' as const;
export const WORKFLOW_STATE_VERSION = 2 as const;

/** An agent step whose agent waits for approval: what a resumed run goes on with. */
export interface PausedAgentStep {
  readonly step: string;
  readonly turn: PausedTurn;
  readonly attempt: number;
}

/** What a state keeps of a workflow that waits: what a resumed run goes on with. */
export interface PausedWorkflow {
  /** The steps that ended, those waiting for approval included (`interrupted`). */
  readonly records: readonly WorkflowStepRecord[];
  /** The approval steps that wait for a decision, and the calls paused agent steps wait for. */
  readonly pending: readonly PendingApproval[];
  /** The agent steps that wait: each one's paused turn, resumed where it stopped. */
  readonly agentSteps: readonly PausedAgentStep[];
}

/**
 * A workflow run paused at approval steps or inside agent steps, as plain, versioned JSON: store
 * it anywhere and `resumeWorkflow` from it, in this process or another one.
 */
export interface WorkflowStateSnapshot extends PausedWorkflow {
  readonly format: typeof WORKFLOW_STATE_FORMAT;
  readonly version: typeof WORKFLOW_STATE_VERSION;
  readonly run: PausedRun & { readonly input: unknown; readonly workflow: string };
  /** SHA-256 (HMAC-SHA-256 with a secret) of everything else, hex: a changed state is refused. */
  readonly integrity: string;
}

function refuse(message: string): never {
  throw new ConfigurationError({ option: 'state', message });
}

/**
 * Checks a workflow state before the run goes on: its format, version, integrity, workflow, and
 * one decision per waiting approval step. Throws a `ConfigurationError` saying what is wrong.
 */
export async function openWorkflowState(
  value: unknown,
  workflow: Workflow,
  decisions: readonly ApprovalDecision[],
  secret: string | undefined,
): Promise<WorkflowStateSnapshot> {
  const state = await openState<WorkflowStateSnapshot>(value, {
    format: WORKFLOW_STATE_FORMAT,
    version: WORKFLOW_STATE_VERSION,
    what: 'workflow state',
    expected: "the 'state' of a workflow result that stopped with 'interrupted'",
    secret,
  });
  if (state.run.workflow !== workflow.name)
    refuse(
      `The state was made by workflow '${state.run.workflow}', not '${workflow.name}': resume it with the same workflow.`,
    );
  const names = new Set(workflow.steps.map(step => step.name));
  const unknown =
    state.records.find(record => !names.has(record.name))?.name ??
    state.agentSteps.find(paused => !names.has(paused.step))?.step;
  if (unknown !== undefined)
    refuse(
      `The state has step '${unknown}', which workflow '${workflow.name}' does not have any more: resume it with the workflow that paused it.`,
    );
  const notAgent = state.agentSteps.find(
    paused => workflow.steps.find(step => step.name === paused.step)?.runs.kind !== 'agent',
  );
  if (notAgent !== undefined)
    refuse(
      `The state paused in the agent of step '${notAgent.step}', which no longer runs an agent in workflow '${workflow.name}': resume it with the workflow that paused it.`,
    );
  checkDecisions(state.pending, decisions);
  return state;
}
