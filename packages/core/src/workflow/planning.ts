import type { AnyAgent } from '../kernel/agent/agent.js';
import type { ApprovalDecision } from '../kernel/protocol/approval.js';
import type { Message } from '../kernel/protocol/message.js';
import type { OpenSpan } from '../kernel/trace/run-tracer.js';
import { loadWorkflow, WorkflowLoadError } from './load-workflow.js';
import {
  failedStepFeedback,
  planRequest,
  planText,
  planValue,
  refusedPlanFeedback,
  type PlanCatalog,
} from './plan-prompt.js';
import type { Workflow } from './workflow.js';
import {
  turnToEnd,
  pausedRun,
  type RunEnding,
  type RunState,
} from '../kernel/run/frame/runner-api.js';
import {
  executeWorkflow,
  type ExecuteWorkflowOptions,
  type WorkflowOutcome,
} from './execute-workflow.js';
import type { PlanAndRunOptions, PlanRecord, PlanResult } from './plan-types.js';
import { PLAN_STATE_FORMAT, PLAN_STATE_VERSION, type PlanStateSnapshot } from './plan-snapshot.js';
import { redactStepErrors, workflowEnding } from './run-workflow.js';

/** How many plans and re-plans a planned run may use. */
export interface PlanLimits {
  readonly maxPlans: number;
  readonly maxReplans: number;
}

/** What to ask the planner next, and why. */
interface NextAsk {
  readonly ask: string;
  readonly reason: PlanRecord['reason'];
}

/** The workflow a plan's text becomes with the run's tools and agents (its file: `plan N`). */
export function loadPlan(text: string, revision: number, options: PlanAndRunOptions): Workflow {
  return loadWorkflow(text, {
    file: `plan ${revision}`,
    tools: options.tools ?? [],
    agents: options.agents ?? [],
  });
}

/** One planning run: the planner's conversation, its plans, and the workflows they became. */
export class Planning {
  readonly plans: PlanRecord[];
  #messages: readonly Message[];
  #replans: number;
  #last: WorkflowOutcome | undefined;
  readonly #catalog: PlanCatalog;

  constructor(
    readonly planner: AnyAgent,
    readonly request: string,
    readonly span: OpenSpan,
    readonly state: RunState,
    readonly options: PlanAndRunOptions,
    /** A paused planned run's plans, conversation and re-plans, when it goes on. */
    restored?: PlanStateSnapshot,
  ) {
    this.#catalog = { tools: options.tools ?? [], agents: options.agents ?? [] };
    this.plans = [...(restored?.plans ?? [])];
    this.#messages = restored?.messages ?? [];
    this.#replans = restored?.replans ?? 0;
  }

  /** Plans and runs until a workflow ends without a failed step, or the limits are used. */
  run(limits: PlanLimits): Promise<RunEnding> {
    return this.#loop(limits, 1, {
      ask: planRequest(this.request, this.#catalog),
      reason: 'request',
    });
  }

  /**
   * Goes on with the paused plan's workflow (its last plan), the decisions given; then, as
   * `run` does, re-plans when a step fails and re-plans are left.
   */
  async resume(
    limits: PlanLimits,
    workflow: Workflow,
    paused: PlanStateSnapshot,
    decisions: readonly ApprovalDecision[],
  ): Promise<RunEnding> {
    const revision = paused.plans.at(-1)?.revision ?? 1;
    this.plans[this.plans.length - 1] = { ...(this.plans.at(-1) as PlanRecord), workflow };
    const outcome = await this.#execute(workflow, revision, { resumed: { paused, decisions } });
    const next = this.#afterWorkflow(outcome, revision, limits);
    return 'ask' in next ? this.#loop(limits, revision + 1, next) : next;
  }

  async #loop(limits: PlanLimits, first: number, start: NextAsk): Promise<RunEnding> {
    let { ask, reason } = start;
    for (let revision = first; revision <= limits.maxPlans; revision++) {
      const answer = await this.#ask(ask);
      if (answer.stopReason !== 'completed') return answer;
      const text = planText(answer.output);
      const loaded = this.#check(text, revision, reason);
      if (typeof loaded === 'string') {
        [ask, reason] = [refusedPlanFeedback(loaded), 'refused_plan'];
        continue;
      }
      const next = this.#afterWorkflow(await this.#execute(loaded, revision), revision, limits);
      if (!('ask' in next)) return next;
      ({ ask, reason } = next);
    }
    return {
      stopReason: 'plan_refused',
      output: '',
      error: undefined,
      limit: { name: 'maxPlans', value: limits.maxPlans },
      detail: `the planner's last plan was refused: ${this.plans.at(-1)?.problems.join('; ') ?? ''}`,
      degradedTools: [],
    };
  }

  /** After a plan's workflow: the run's end, or (a step failed, a re-plan left) what to ask next. */
  #afterWorkflow(
    outcome: WorkflowOutcome,
    revision: number,
    limits: PlanLimits,
  ): RunEnding | NextAsk {
    // No re-plan when none is left, or no plan: the workflow's end is the run's.
    const replan = this.#replans < limits.maxReplans && revision < limits.maxPlans;
    if (outcome.status !== 'failed' || outcome.failed === undefined || !replan)
      return workflowEnding(outcome);
    this.#replans++;
    return { ask: failedStepFeedback(outcome.failed, outcome.records), reason: 'step_failed' };
  }

  /** Asks the planner, carrying its conversation on; its answer, or how it stopped. */
  async #ask(input: string): Promise<RunEnding & { output: string }> {
    const outcome = await turnToEnd(
      this.planner,
      { input, messages: this.#messages, path: [this.planner.name] },
      this.span,
      this.state,
    );
    this.#messages = outcome.conversation.messages;
    const output =
      outcome.decoded?.value === undefined ? outcome.output : JSON.stringify(outcome.decoded.value);
    return { ...outcome, output };
  }

  /** Loads a plan: its workflow, or the problem the planner is told. Traced as a `plan` event. */
  #check(text: string, revision: number, reason: PlanRecord['reason']): Workflow | string {
    let workflow: Workflow | undefined;
    let problem: string | undefined;
    try {
      workflow = loadPlan(text, revision, this.options);
    } catch (error) {
      if (!(error instanceof WorkflowLoadError)) throw error;
      problem = error.message;
    }
    const problems = problem === undefined ? [] : [problem];
    const verdict = workflow === undefined ? 'refused' : 'accepted';
    this.state.tracer.point('plan', this.span, {
      revision,
      plan: planValue(text),
      verdict,
      ...(problem === undefined ? {} : { problems }),
      reason,
    });
    this.plans.push({ revision, reason, text, verdict, problems, ...(workflow && { workflow }) });
    return workflow ?? (problem as string);
  }

  async #execute(
    workflow: Workflow,
    revision: number,
    resumed: Pick<ExecuteWorkflowOptions, 'resumed'> = {},
  ): Promise<WorkflowOutcome> {
    const outcome = await executeWorkflow(workflow, this.request, this.span, this.state, {
      maxConcurrency: this.options.maxConcurrency ?? 8,
      planRevision: revision,
      ...resumed,
    });
    this.#last = outcome;
    const index = this.plans.length - 1;
    this.plans[index] = {
      ...(this.plans[index] as PlanRecord),
      steps: outcome.records,
      status: outcome.status,
    };
    return outcome;
  }

  /** What the state of a run whose plan's workflow waits holds; undefined when it does not wait. */
  pausedBody(): Omit<PlanStateSnapshot, 'integrity'> | undefined {
    const last = this.#last;
    if (last?.status !== 'interrupted') return undefined;
    return {
      format: PLAN_STATE_FORMAT,
      version: PLAN_STATE_VERSION,
      run: { ...pausedRun(this.state), request: this.request, planner: this.planner.name },
      messages: this.#messages,
      plans: this.plans.map(({ revision, reason, text, verdict, problems }) => ({
        revision,
        reason,
        text,
        verdict,
        problems,
      })),
      replans: this.#replans,
      records: last.records,
      pending: last.pending,
      agentSteps: last.agentSteps,
    };
  }

  result(ending: RunEnding, state: PlanStateSnapshot | undefined): PlanResult {
    const last = this.#last;
    return {
      status:
        last?.status ??
        (ending.stopReason === 'aborted' || ending.stopReason === 'timeout' ? 'aborted' : 'failed'),
      stopReason: ending.stopReason,
      output: last?.status === 'completed' ? last.output : undefined,
      steps: redactStepErrors(last?.records ?? [], this.state.redaction),
      detail: ending.detail,
      error:
        this.state.redaction === undefined
          ? ending.error
          : this.state.redaction.error(ending.error),
      runId: this.state.tracer.runId,
      usage: this.state.totals.usage,
      traceErrors: this.state.tracer.sinkErrors,
      plans: this.plans,
      interruptions: state === undefined ? [] : (last?.pending ?? []),
      state,
    };
  }
}
