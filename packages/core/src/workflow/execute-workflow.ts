import type { ApprovalDecision, PendingApproval } from '../kernel/protocol/approval.js';
import { RunAbortedError } from '../kernel/errors/abort-error.js';
import type { OpenSpan, RunTracer } from '../kernel/trace/run-tracer.js';
import { Semaphore } from '../kernel/util/semaphore.js';
import { StepLock } from './step-lock.js';
import { stepGraph, tracedRuns, workflowOutput, type WorkflowStepRecord } from './step-record.js';
import { StepSchedule } from './step-schedule.js';
import type { Workflow, WorkflowStep } from './workflow.js';
import { type RunState, toTraceError, withTracer } from '../kernel/run/frame/runner-api.js';
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
 * with `parallel: false` alone, when the steps running have ended). Each step writes to its own
 * view of the trace, delivered in trace order ({@link stepGraph}), so the trace is the same
 * whichever step finished first.
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
  const shared = {
    workflow,
    workflowSpan: span,
    records,
    input,
    semaphore: new Semaphore(options.maxConcurrency),
    lock: new StepLock(),
    pending: [] as PendingApproval[],
    paused: new Map<string, PausedAgentStep>(),
  };
  const graph = stepGraph(workflow);
  const { order } = graph;
  // Ended before a pause: no context (approval and agent steps that waited go on).
  const contexts = order.map(step =>
    records.has(step.name) && !decisions.has(step.name) && !goingOn.has(step.name)
      ? undefined
      : stepContext(step, shared, state, decisions, goingOn),
  );
  const delivery = new TraceDelivery(order.length);
  const errors: unknown[] = [];
  const schedule: StepSchedule = new StepSchedule(graph, index => {
    const step = order[index] as WorkflowStep;
    const context = contexts[index];
    if (context === undefined) {
      delivery.ended(index);
      return schedule.ended(index);
    }
    const ended = () => {
      delivery.ended(index, context.state.tracer);
      schedule.ended(index);
    };
    startStep(step, context).then(
      record => {
        if (record === undefined) records.delete(step.name);
        else records.set(step.name, record);
        ended();
      },
      (error: unknown) => {
        errors.push(error); // an abort: kept for the outcome
        ended();
      },
    );
  });
  schedule.begin();
  await delivery.all;
  const error =
    errors[0] ??
    (state.signal?.aborted === true
      ? new RunAbortedError({ reason: state.signal.reason })
      : undefined);
  const agentSteps = order.flatMap(step => shared.paused.get(step.name) ?? []);
  return outcomeOf(
    workflow,
    order.map(step => records.get(step.name)),
    shared.pending,
    agentSteps,
    error,
  );
}

/** A step's context: what the steps share, its own view of the trace, and what it goes on with. */
function stepContext(
  step: WorkflowStep,
  shared: Omit<StepContext, 'state' | 'decision' | 'resumed'>,
  state: RunState,
  decisions: ReadonlyMap<string, ApprovalDecision>,
  goingOn: ReadonlyMap<string, PausedAgentStep>,
): StepContext {
  // Every context of one shape, field by field: spreads made each a shape of its own, and every
  // read of a context on the step's path slow.
  return {
    workflow: shared.workflow,
    workflowSpan: shared.workflowSpan,
    records: shared.records,
    input: shared.input,
    state: withTracer(state, state.tracer.capture()),
    semaphore: shared.semaphore,
    lock: shared.lock,
    pending: shared.pending,
    paused: shared.paused,
    decision: decisions.get(step.name),
    resumed: resumedAgent(goingOn.get(step.name), decisions),
  };
}

/** Runs a step; a throw (an abort) becomes a rejection. */
function startStep(
  step: WorkflowStep,
  context: StepContext,
): Promise<WorkflowStepRecord | undefined> {
  try {
    return runWorkflowStep(step, context);
  } catch (error) {
    return Promise.reject(error);
  }
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

  /** The step at `index` (in trace order) ended, and the tracer it wrote to (a view commits). */
  ended(index: number, tracer?: RunTracer): void {
    this.#ended[index] = tracer ?? null;
    for (let next = this.#ended[this.#next]; next !== undefined; next = this.#ended[this.#next]) {
      next?.commit();
      this.#next++;
    }
    if (this.#next === this.count) this.#allEnded();
  }
}

/** A paused agent step's context on resume: its turn, the decisions on its calls, its attempt. */
function resumedAgent(
  agentStep: PausedAgentStep | undefined,
  decisions: ReadonlyMap<string, ApprovalDecision>,
): StepContext['resumed'] {
  if (agentStep === undefined) return undefined;
  const { turn, attempt } = agentStep;
  const own = turn.pending.flatMap(approval => decisions.get(approval.callId) ?? []);
  return { turn, attempt, decisions: own };
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
