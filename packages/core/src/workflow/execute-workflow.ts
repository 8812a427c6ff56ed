import type { ApprovalDecision, PendingApproval } from '../kernel/protocol/approval.js';
import { RunAbortedError } from '../kernel/errors/abort-error.js';
import type { OpenSpan, RunTracer } from '../kernel/trace/run-tracer.js';
import { Semaphore } from '../kernel/util/semaphore.js';
import { StepLock } from './step-lock.js';
import { traceOrder, tracedRuns, workflowOutput, type WorkflowStepRecord } from './step-record.js';
import type { Workflow, WorkflowStep } from './workflow.js';
import { type RunState, toTraceError, withTracer } from '../kernel/run/runner-api.js';
import { runWorkflowStep, type StepContext } from './run-workflow-step.js';
import type { PausedAgentStep, PausedWorkflow } from './workflow-snapshot.js';
import { defined } from '../kernel/util/defined.js';

/** How a workflow ended: `interrupted` when a step waits for a person. */
export type WorkflowStatus = 'completed' | 'failed' | 'interrupted' | 'aborted';

/**
 * What running a workflow did: each step's record (in trace order), the workflow's output, and
 * what waits for a person (a state keeps `records`, `pending` and `agentSteps` as they are).
 */
export interface WorkflowOutcome extends PausedWorkflow {
  readonly status: WorkflowStatus;
  readonly output: unknown;
  /** The first step that failed, in trace order. */
  readonly failed: WorkflowStepRecord | undefined;
  /** Set when the run was aborted or timed out while the workflow ran. */
  readonly error: Error | undefined;
}

/** How a workflow runs within a run. */
export interface ExecuteWorkflowOptions {
  /** How many tool or agent runs may go on at once. */
  readonly maxConcurrency: number;
  /** For a planned workflow: the plan's revision. */
  readonly planRevision?: number;
  /**
   * Set when the run goes on from a pause: what waited (steps that ended are not run again,
   * approval steps are decided, paused agent steps go on in their turn), and the decisions on
   * approval steps (by step name) and on paused agents' calls (by call id).
   */
  readonly resumed?: {
    readonly paused: PausedWorkflow;
    readonly decisions: readonly ApprovalDecision[];
  };
}

/**
 * Runs a workflow as a DAG under `parent`, inside its `workflow_start` / `workflow_end`: each
 * step starts as soon as its dependencies have ended, independent ones at the same time (a step
 * with `parallel: false` alone, when the steps running have ended). Each
 * step writes to its own view of the trace, delivered in {@link traceOrder}, so the trace is the
 * same whichever step finished first.
 */
export async function executeWorkflow(
  workflow: Workflow,
  input: unknown,
  parent: OpenSpan,
  state: RunState,
  options: ExecuteWorkflowOptions,
): Promise<WorkflowOutcome> {
  const { tracer } = state;
  const revision = defined('plan_revision', options.planRevision);
  const span = tracer.start('workflow_start', workflow.name, parent, {
    workflow: workflow.name,
    input,
    steps: workflow.steps.map(step => ({
      name: step.name,
      runs: tracedRuns(step),
      depends_on: [...step.dependsOn],
      ...(step.condition === undefined ? {} : { condition: step.condition.text }),
      ...(step.forEach === undefined ? {} : { for_each: step.forEach.text }),
      ...(step.parallel ? {} : { parallel: false }),
    })),
    ...revision,
  });
  let outcome: WorkflowOutcome | undefined;
  try {
    outcome = await runSteps(workflow, input, span, state, options);
    return outcome;
  } finally {
    const records = outcome?.records ?? [];
    const count = (status: string) => records.filter(record => record.status === status).length;
    // The run's abort or timeout, else the first failed step's error.
    const error =
      outcome?.error === undefined ? outcome?.failed?.error : toTraceError(outcome.error);
    tracer.end(span, {
      workflow: workflow.name,
      status: outcome?.status ?? 'aborted',
      steps: { completed: count('completed'), failed: count('failed'), skipped: count('skipped') },
      ...(outcome?.status === 'completed' ? { output: outcome.output } : {}),
      ...defined('error', error),
      ...revision,
    });
  }
}

async function runSteps(
  workflow: Workflow,
  input: unknown,
  span: OpenSpan,
  state: RunState,
  options: ExecuteWorkflowOptions,
): Promise<WorkflowOutcome> {
  const { paused: waited, decisions: given = [] } = options.resumed ?? {};
  const records = new Map((waited?.records ?? []).map(record => [record.name, record]));
  const decisions = new Map(given.map(decision => [decision.callId, decision]));
  const goingOn = new Map((waited?.agentSteps ?? []).map(agentStep => [agentStep.step, agentStep]));
  const semaphore = new Semaphore(options.maxConcurrency);
  const lock = new StepLock();
  const pending: PendingApproval[] = [];
  const paused = new Map<string, PausedAgentStep>();
  const order = traceOrder(workflow);
  const ended = new Map<string, Promise<unknown>>();
  const delivery = new TraceDelivery(order.length);
  const errors: unknown[] = [];
  for (const [index, step] of order.entries()) {
    // Ended before a pause; approval and agent steps that waited go on.
    if (records.has(step.name) && !decisions.has(step.name) && !goingOn.has(step.name)) {
      delivery.ended(index);
      continue;
    }
    const view = state.tracer.capture();
    const context: StepContext = {
      workflow,
      workflowSpan: span,
      records,
      input,
      state: view === state.tracer ? state : withTracer(state, view),
      semaphore,
      lock,
      pending,
      paused,
      ...(decisions.has(step.name) ? { decision: decisions.get(step.name) } : {}),
      ...resumedAgent(goingOn.get(step.name), decisions),
    };
    const ready = dependenciesEnded(step, ended);
    const delivered = () => delivery.ended(index, view === state.tracer ? undefined : view);
    ended.set(step.name, settle(step, context, ready, { records, errors, delivered }));
  }
  await delivery.all;
  const error =
    errors[0] ??
    (state.signal?.aborted === true
      ? new RunAbortedError({ reason: state.signal.reason })
      : undefined);
  const agentSteps = order.flatMap(step => paused.get(step.name) ?? []);
  return outcomeOf(
    workflow,
    order.map(step => records.get(step.name)),
    pending,
    agentSteps,
    error,
  );
}

/**
 * Delivers the steps' views of the trace in trace order: each as soon as its step and every step
 * before it have ended, so a long workflow's trace is written as it goes.
 */
class TraceDelivery {
  readonly #ended: (RunTracer | null)[] = [];
  #next = 0;
  #allEnded: () => void = () => undefined;
  /** Settles once every step has ended and been delivered. */
  readonly all: Promise<void>;

  constructor(private readonly count: number) {
    this.all = new Promise(resolve => (this.#allEnded = resolve));
    if (count === 0) this.#allEnded();
  }

  /** The step at `index` (in trace order) ended; its view, if it wrote to one of its own. */
  ended(index: number, view?: RunTracer): void {
    this.#ended[index] = view ?? null;
    for (let next = this.#ended[this.#next]; next !== undefined; next = this.#ended[this.#next]) {
      next?.commit();
      this.#next++;
    }
    if (this.#next === this.count) this.#allEnded();
  }
}

/** When a step's dependencies have ended: their one promise, or all of theirs. */
function dependenciesEnded(
  step: WorkflowStep,
  ended: ReadonlyMap<string, Promise<unknown>>,
): Promise<unknown> | undefined {
  const { dependsOn } = step;
  if (dependsOn.length === 0) return undefined;
  if (dependsOn.length === 1) return ended.get(dependsOn[0] as string);
  return Promise.all(dependsOn.map(name => ended.get(name) ?? Promise.resolve()));
}

/**
 * Runs a step once its dependencies have ended (never before every step is set up), and keeps
 * its record; an error (an abort) is kept for the outcome. Never rejects.
 */
async function settle(
  step: WorkflowStep,
  context: StepContext,
  ready: Promise<unknown> | undefined,
  kept: {
    readonly records: Map<string, WorkflowStepRecord>;
    readonly errors: unknown[];
    /** Called once the step has ended, whichever way. */
    readonly delivered: () => void;
  },
): Promise<void> {
  try {
    await ready;
    const record = await runWorkflowStep(step, context);
    if (record === undefined) kept.records.delete(step.name);
    else kept.records.set(step.name, record);
  } catch (error) {
    kept.errors.push(error);
  } finally {
    kept.delivered();
  }
}

/** A paused agent step's context on resume: its turn, the decisions on its calls, its attempt. */
function resumedAgent(
  agentStep: PausedAgentStep | undefined,
  decisions: ReadonlyMap<string, ApprovalDecision>,
): Partial<Pick<StepContext, 'resumed'>> {
  if (agentStep === undefined) return {};
  const { turn, attempt } = agentStep;
  const own = turn.pending.flatMap(approval => decisions.get(approval.callId) ?? []);
  return { resumed: { turn, attempt, decisions: own } };
}

function outcomeOf(
  workflow: Workflow,
  ordered: readonly (WorkflowStepRecord | undefined)[],
  pending: readonly PendingApproval[],
  agentSteps: readonly PausedAgentStep[],
  error: unknown,
): WorkflowOutcome {
  const records = ordered.filter(record => record !== undefined);
  const failed = records.find(record => record.status === 'failed');
  const status: WorkflowStatus =
    error !== undefined
      ? 'aborted'
      : pending.length > 0
        ? 'interrupted'
        : failed === undefined
          ? 'completed'
          : 'failed';
  return {
    status,
    records,
    output: workflowOutput(workflow, new Map(records.map(record => [record.name, record]))),
    pending,
    agentSteps,
    failed,
    error:
      error === undefined
        ? undefined
        : error instanceof Error
          ? error
          : new Error(toTraceError(error).message),
  };
}
