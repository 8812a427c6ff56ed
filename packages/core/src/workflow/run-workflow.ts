import type { ApprovalDecision, PendingApproval } from '../kernel/protocol/approval.js';
import { ConfigurationError } from '../kernel/errors/configuration-error.js';
import type { StopReason } from '../kernel/protocol/stop-reason.js';
import type { Usage } from '../kernel/protocol/usage.js';
import type { WorkflowStepRecord } from './step-record.js';
import type { Workflow } from './workflow.js';
import {
  openRun,
  pausedRun,
  type ResumeOnceOptions,
  type RunEnding,
  type RunState,
  sealState,
  toTraceError,
} from '../kernel/run/frame/runner-api.js';
import { executeWorkflow, type WorkflowOutcome, type WorkflowStatus } from './execute-workflow.js';
import type { RunOptions } from '../runner/run-options.js';
import type { Redaction } from '../kernel/trace/redaction.js';
import { standardFeatures } from '../runner/standard-features.js';
import {
  openWorkflowState,
  WORKFLOW_STATE_FORMAT,
  WORKFLOW_STATE_VERSION,
  type WorkflowStateSnapshot,
} from './workflow-snapshot.js';

/** Options of `runWorkflow`: the run's options, and how much runs at once. */
export interface WorkflowRunOptions extends Omit<RunOptions, 'history' | 'forkedFrom'> {
  /** How many tool or agent runs may go on at once, across steps and items. @defaultValue 8 */
  maxConcurrency?: number;
}

/** Options of `resumeWorkflow`: one decision per waiting approval step (its name is the call id). */
export interface ResumeWorkflowOptions extends WorkflowRunOptions, ResumeOnceOptions {
  decisions: readonly ApprovalDecision[];
}

/** What a workflow run did and why it stopped. */
export interface WorkflowResult {
  readonly status: WorkflowStatus;
  /** `completed`; `workflow_step_failed`; `interrupted` (an approval step waits); `aborted`; `timeout`. */
  readonly stopReason: StopReason;
  /** The output of the last step (of the last steps, by name, when several end the workflow). */
  readonly output: unknown;
  /** Every step that ended (in trace order): status, output or error, attempts. */
  readonly steps: readonly WorkflowStepRecord[];
  /** Why it stopped, for people: which step failed and how. */
  readonly detail: string | undefined;
  readonly error: Error | undefined;
  readonly runId: string;
  /** Tokens of the agent steps' model calls. */
  readonly usage: Usage;
  /** The approval steps waiting for a person. */
  readonly interruptions: readonly PendingApproval[];
  /** Set when interrupted: what `resumeWorkflow` goes on from. */
  readonly state: WorkflowStateSnapshot | undefined;
  /** Errors thrown by trace sinks; the run went on without them. */
  readonly traceErrors: readonly Error[];
}

/**
 * Runs a workflow (from `workflow()` or `loadWorkflow()`) as one traced run: a `run_start`, the
 * `workflow_start`, a `workflow_step_start` / `workflow_step_end` per step with the tool and
 * agent spans inside, and the `run_end` seal. Independent steps run at the same time; the trace
 * order does not depend on which finished first. Never throws for what happens in the run.
 *
 * @example
 * ```ts
 * const pipeline = loadWorkflow(readFileSync('workflow.yaml', 'utf8'), { file: 'workflow.yaml', tools });
 * const result = await runWorkflow(pipeline, { source: 'sales.csv' }, { trace: jsonlSink('traces/wf.jsonl') });
 * result.status; result.output; result.steps;
 * ```
 */
export function runWorkflow(
  workflow: Workflow,
  input: unknown = null,
  options: WorkflowRunOptions = {},
): Promise<WorkflowResult> {
  assertWorkflow(workflow, options);
  return workflowRun(workflow, input, options, undefined);
}

/**
 * Goes on with a workflow run paused at approval steps or inside agent steps, from its `state`,
 * with a decision per waiting step (`callId` is the step's name) and per call a paused agent waits
 * for (`callId` is the call's): approved or edited approval steps complete (their output is the
 * decision), rejected ones fail; a paused agent goes on in its turn, as `resume` goes on in a run. Steps that ended before the pause are not run again; the
 * run keeps its id and its seq runs on. A state goes on once, as with `resume` (a second use
 * throws a `StateAlreadyResumedError`; `fork: true` goes on as a new run).
 */
export async function resumeWorkflow(
  workflow: Workflow,
  state: WorkflowStateSnapshot | string,
  options: ResumeWorkflowOptions,
): Promise<WorkflowResult> {
  assertWorkflow(workflow, options);
  const opened = await openWorkflowState(
    state,
    workflow,
    options.decisions ?? [],
    options.stateSecret,
  );
  return workflowRun(workflow, opened.run.input, options, opened);
}

async function workflowRun(
  workflow: Workflow,
  input: unknown,
  options: WorkflowRunOptions | ResumeWorkflowOptions,
  resumed: WorkflowStateSnapshot | undefined,
): Promise<WorkflowResult> {
  const {
    state,
    span: runSpan,
    close,
  } = await openRun(
    workflow.name,
    options,
    { input: typeof input === 'string' ? input : JSON.stringify(input) },
    { resumed, features: options.features ?? standardFeatures },
  );
  let outcome: WorkflowOutcome | undefined;
  try {
    outcome = await executeWorkflow(workflow, input, runSpan, state, {
      maxConcurrency: options.maxConcurrency ?? 8,
      ...(resumed === undefined
        ? {}
        : {
            resumed: { paused: resumed, decisions: (options as ResumeWorkflowOptions).decisions },
          }),
    });
  } finally {
    await close(workflowEnding(outcome));
  }
  const paused =
    outcome.status === 'interrupted'
      ? await sealState(pausedBody(workflow, input, state, outcome), options.stateSecret)
      : undefined;
  return resultOf(state, outcome, paused);
}

/** How a workflow's run ended, as the `run_end` seal records it. */
export function workflowEnding(outcome: WorkflowOutcome | undefined): RunEnding {
  const output = outcome?.status === 'completed' ? outcome.output : undefined;
  const ending = {
    output:
      output === undefined ? '' : typeof output === 'string' ? output : JSON.stringify(output),
    error: outcome?.error,
    limit: undefined,
    degradedTools: [],
  };
  if (outcome === undefined) return { ...ending, stopReason: 'aborted', detail: undefined };
  const { status, failed } = outcome;
  if (status === 'aborted')
    return {
      ...ending,
      stopReason: toTraceError(outcome.error).type === 'timeout' ? 'timeout' : 'aborted',
      detail: undefined,
    };
  if (status === 'failed')
    return {
      ...ending,
      stopReason: 'workflow_step_failed',
      detail: `step '${failed?.name}' failed: ${failed?.error?.message ?? 'no error recorded'}`,
    };
  return {
    ...ending,
    stopReason: status === 'interrupted' ? 'interrupted' : 'completed',
    detail:
      status === 'interrupted'
        ? `waits for approval of ${outcome.pending.map(step => `'${step.callId}'`).join(', ')}`
        : undefined,
  };
}

function pausedBody(
  workflow: Workflow,
  input: unknown,
  state: RunState,
  outcome: WorkflowOutcome,
): Omit<WorkflowStateSnapshot, 'integrity'> {
  const { records, pending, agentSteps } = outcome;
  return {
    format: WORKFLOW_STATE_FORMAT,
    version: WORKFLOW_STATE_VERSION,
    run: { ...pausedRun(state), input, workflow: workflow.name },
    records,
    pending,
    agentSteps,
  };
}

function resultOf(
  state: RunState,
  outcome: WorkflowOutcome,
  paused: WorkflowStateSnapshot | undefined,
): WorkflowResult {
  const ending = workflowEnding(outcome);
  return {
    status: outcome.status,
    stopReason: ending.stopReason,
    output: outcome.output,
    steps: redactStepErrors(outcome.records, state.redaction),
    detail: ending.detail,
    error: state.redaction === undefined ? outcome.error : state.redaction.error(outcome.error),
    runId: state.tracer.runId,
    usage: state.totals.usage,
    interruptions: outcome.pending,
    state: paused,
    traceErrors: state.tracer.sinkErrors,
  };
}

/** Step records as a result returns them: their error messages redacted. */
export function redactStepErrors(
  records: readonly WorkflowStepRecord[],
  redaction: Redaction | undefined,
): readonly WorkflowStepRecord[] {
  if (redaction === undefined || records.every(record => record.error === undefined))
    return records;
  return records.map(record =>
    record.error === undefined
      ? record
      : {
          ...record,
          error: { ...record.error, message: redaction.message(record.error.message) },
        },
  );
}

function assertWorkflow(workflow: Workflow, options: WorkflowRunOptions): void {
  if (typeof workflow !== 'object' || workflow === null || !Array.isArray(workflow.steps))
    throw new ConfigurationError({
      option: 'workflow',
      message:
        'runWorkflow() needs a workflow made with workflow({ name, steps }) or loadWorkflow(text, { tools, agents }) as its first argument.',
    });
  const { maxConcurrency } = options;
  if (maxConcurrency !== undefined && !(Number.isInteger(maxConcurrency) && maxConcurrency > 0))
    throw new ConfigurationError({
      option: 'maxConcurrency',
      message: `Invalid maxConcurrency: expected a whole number of at least 1 (actual: ${String(maxConcurrency)}).`,
    });
}
