import type { AnyAgent } from '../agent/agent.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { Message } from '../protocol/message.js';
import type { OpenSpan } from '../trace/run-tracer.js';
import { loadWorkflow, WorkflowLoadError } from '../workflow/load-workflow.js';
import {
  failedStepFeedback,
  planRequest,
  planText,
  planValue,
  refusedPlanFeedback,
  type PlanCatalog,
} from '../workflow/plan-prompt.js';
import type { Workflow } from '../workflow/workflow.js';
import { agentOutcome } from './agent-outcome.js';
import { openRun, type RunEnding } from './run-frame.js';
import { executeWorkflow, type WorkflowOutcome } from './execute-workflow.js';
import type { RunState } from './run-state.js';
import {
  redactStepErrors,
  workflowEnding,
  type WorkflowResult,
  type WorkflowRunOptions,
} from './run-workflow.js';
import { redactError } from '../redaction/redact-returned.js';

/** Options of `planAndRun`: what plans may use, how many there may be, and the run's options. */
export interface PlanAndRunOptions extends WorkflowRunOptions {
  /** The tools plans may call. @defaultValue none */
  tools?: readonly PlanCatalog['tools'][number][];
  /** The agents plans may run. @defaultValue none */
  agents?: readonly AnyAgent[];
  /** How many plans the planner may write in all, refused ones included. @defaultValue 3 */
  maxPlans?: number;
  /** How many times a failed step may lead to a new plan. @defaultValue 1 */
  maxReplans?: number;
}

/** One plan the planner wrote: checked, and run when accepted. */
export interface PlanRecord {
  /** 1 for the first plan. */
  readonly revision: number;
  /** Why it was asked for. */
  readonly reason: 'request' | 'refused_plan' | 'step_failed';
  /** The plan as written (YAML or JSON text). */
  readonly text: string;
  readonly verdict: 'accepted' | 'refused';
  /** Why it was refused: file (`plan N`), line, column, and how to fix it. */
  readonly problems: readonly string[];
  /** The workflow an accepted plan became. */
  readonly workflow?: Workflow;
  /** How its workflow ran: each step's record. */
  readonly steps?: WorkflowResult['steps'];
  readonly status?: WorkflowResult['status'];
}

/** What `planAndRun` did: the last workflow's result, and every plan. */
export interface PlanResult extends Omit<WorkflowResult, 'state' | 'interruptions'> {
  readonly plans: readonly PlanRecord[];
}

/**
 * Asks a planner agent to break a request into a workflow, checks the plan, and runs it, all as
 * one traced run. A plan that does not load (an unknown tool, a cycle, a bad condition…) is
 * refused, traced as a `plan` event with its problems, and told back to the planner, which
 * writes it again (up to `maxPlans`). When a step of the plan fails, the planner is told what
 * failed and what completed, and writes a new plan (up to `maxReplans`). The trace shows every
 * plan, which was run, and which step did what.
 *
 * @example
 * ```ts
 * const result = await planAndRun(planner, 'Report last week's sales by region', {
 *   tools: [fetchSales, summarise], trace: jsonlSink('traces/plan.jsonl'),
 * });
 * result.plans.length; result.output;
 * ```
 */
export async function planAndRun(
  planner: AnyAgent,
  request: string,
  options: PlanAndRunOptions = {},
): Promise<PlanResult> {
  const limits = planLimits(planner, request, options);
  const {
    state,
    span: runSpan,
    close,
  } = await openRun(planner.name, options, {
    input: request,
  });
  const planning = new Planning(planner, request, runSpan, state, options);
  let ending: RunEnding | undefined;
  try {
    ending = await planning.run(limits);
  } finally {
    await close(ending);
  }
  return planning.result(ending);
}

function planLimits(
  planner: AnyAgent,
  request: string,
  options: PlanAndRunOptions,
): { maxPlans: number; maxReplans: number } {
  if (typeof planner !== 'object' || planner === null || !('toolRegistry' in planner))
    throw new ConfigurationError({
      option: 'planner',
      message: 'planAndRun() needs a planner agent made with agent({ name, model, ... }).',
    });
  if (typeof request !== 'string')
    throw new ConfigurationError({
      option: 'request',
      message: `planAndRun() needs the request as a string (actual: ${typeof request}).`,
    });
  const { maxPlans = 3, maxReplans = 1 } = options;
  for (const [name, value, min] of [
    ['maxPlans', maxPlans, 1],
    ['maxReplans', maxReplans, 0],
  ] as const) {
    if (!Number.isInteger(value) || value < min)
      throw new ConfigurationError({
        option: name,
        message: `Invalid ${name}: expected a whole number of at least ${min} (actual: ${String(value)}).`,
      });
  }
  return { maxPlans, maxReplans };
}

/** One planning run: the planner's conversation, its plans, and the workflows they became. */
class Planning {
  readonly plans: PlanRecord[] = [];
  #messages: readonly Message[] = [];
  #last: WorkflowOutcome | undefined;
  readonly #catalog: PlanCatalog;

  constructor(
    readonly planner: AnyAgent,
    readonly request: string,
    readonly span: OpenSpan,
    readonly state: RunState,
    readonly options: PlanAndRunOptions,
  ) {
    this.#catalog = { tools: options.tools ?? [], agents: options.agents ?? [] };
  }

  /** Plans and runs until a workflow ends without a failed step, or the limits are used. */
  async run(limits: { maxPlans: number; maxReplans: number }): Promise<RunEnding> {
    let ask = planRequest(this.request, this.#catalog);
    let reason: PlanRecord['reason'] = 'request';
    let replans = 0;
    for (let revision = 1; revision <= limits.maxPlans; revision++) {
      const answer = await this.#ask(ask);
      if (answer.stopReason !== 'completed') return answer;
      const text = planText(answer.output);
      const loaded = this.#check(text, revision, reason);
      if (typeof loaded === 'string') {
        [ask, reason] = [refusedPlanFeedback(loaded), 'refused_plan'];
        continue;
      }
      const outcome = await this.#execute(loaded, revision);
      // No re-plan when none is left, or no plan: the workflow's end is the run's.
      const replan = replans < limits.maxReplans && revision < limits.maxPlans;
      if (outcome.status !== 'failed' || outcome.failed === undefined || !replan)
        return workflowEnding(outcome);
      replans++;
      [ask, reason] = [failedStepFeedback(outcome.failed, outcome.records), 'step_failed'];
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

  /** Asks the planner, carrying its conversation on; its answer, or how it stopped. */
  async #ask(input: string): Promise<RunEnding & { output: string }> {
    const outcome = await agentOutcome(
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
      workflow = loadWorkflow(text, { file: `plan ${revision}`, ...this.#catalog });
    } catch (error) {
      if (!(error instanceof WorkflowLoadError)) throw error;
      problem = error.message;
    }
    const approval = workflow?.steps.find(step => step.runs.kind === 'approval');
    if (approval !== undefined) {
      problem = `plan ${revision}:${approval.at?.line ?? 1}:${approval.at?.column ?? 1}: step '${approval.name}' waits for a person's approval, which a planned workflow cannot do: use a tool or an agent.`;
      workflow = undefined;
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

  async #execute(workflow: Workflow, revision: number): Promise<WorkflowOutcome> {
    const outcome = await executeWorkflow(workflow, this.request, this.span, this.state, {
      maxConcurrency: this.options.maxConcurrency ?? 8,
      planRevision: revision,
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

  result(ending: RunEnding): PlanResult {
    const last = this.#last;
    return {
      status:
        last?.status ??
        (ending.stopReason === 'aborted' || ending.stopReason === 'timeout' ? 'aborted' : 'failed'),
      stopReason: ending.stopReason,
      output: last?.status === 'completed' ? last.output : undefined,
      steps: redactStepErrors(last?.records ?? [], this.state.redactor),
      detail: ending.detail,
      error: redactError(ending.error, this.state.redactor),
      runId: this.state.tracer.runId,
      usage: this.state.totals.usage,
      traceErrors: this.state.tracer.sinkErrors,
      plans: this.plans,
    };
  }
}
