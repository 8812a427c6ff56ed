import type { AnyAgent } from '../kernel/agent/agent.js';
import { ConfigurationError } from '../kernel/errors/configuration-error.js';
import { WorkflowLoadError } from './load-workflow.js';
import type { Workflow } from './workflow.js';
import { openPlanState, type PlanStateSnapshot } from './plan-snapshot.js';
import type { PlanAndRunOptions, PlanResult, ResumePlanOptions } from './plan-types.js';
import { loadPlan, Planning, type PlanLimits } from './planning.js';
import {
  forkedFromFields,
  openRun,
  type RunEnding,
  sealState,
} from '../kernel/run/frame/runner-api.js';
import { standardFeatures } from '../runner/standard-features.js';

export type { PlanAndRunOptions, PlanRecord, PlanResult, ResumePlanOptions } from './plan-types.js';

/**
 * Asks a planner agent to break a request into a workflow, checks the plan, and runs it, all as
 * one traced run. A plan that does not load (an unknown tool, a cycle, a bad condition…) is
 * refused, traced as a `plan` event with its problems, and told back to the planner, which
 * writes it again (up to `maxPlans`). When a step of the plan fails, the planner is told what
 * failed and what completed, and writes a new plan (up to `maxReplans`). The trace shows every
 * plan, which was run, and which step did what. A plan's approval step, or an agent step whose
 * agent asks for approval, pauses the run: it stops `interrupted` with a `state` for
 * {@link resumePlan}.
 *
 * @example
 * ```ts
 * const result = await planAndRun(planner, 'Report last week's sales by region', {
 *   tools: [fetchSales, summarise], trace: jsonlSink('traces/plan.jsonl'),
 * });
 * result.plans.length; result.output;
 * ```
 */
export function planAndRun(
  planner: AnyAgent,
  request: string,
  options: PlanAndRunOptions = {},
): Promise<PlanResult> {
  const limits = planLimits(planner, request, options);
  return plannedRun(planner, request, options, limits, undefined);
}

/**
 * Goes on with a planned run paused while its plan's workflow waits for a person, from its
 * `state`, with a decision per waiting approval step (the step's name is its call id) and per
 * call a paused agent step waits for; pass the same planner, tools and agents. The plan is loaded
 * again from its text, the workflow goes on where it stopped, and a step that then fails is
 * re-planned as in `planAndRun`, within the limits left. A state goes on once (a second use throws
 * a `StateAlreadyResumedError`; `fork: true` goes on as a new run).
 */
export async function resumePlan(
  planner: AnyAgent,
  state: PlanStateSnapshot | string,
  options: ResumePlanOptions,
): Promise<PlanResult> {
  const opened = await openPlanState(state, planner, options.decisions ?? [], options.stateSecret);
  const limits = planLimits(planner, opened.run.request, options);
  return plannedRun(planner, opened.run.request, options, limits, opened);
}

async function plannedRun(
  planner: AnyAgent,
  request: string,
  options: PlanAndRunOptions | ResumePlanOptions,
  limits: PlanLimits,
  resumed: PlanStateSnapshot | undefined,
): Promise<PlanResult> {
  // The paused plan is loaded before the run opens: a plan that no longer loads uses nothing up.
  const workflow = resumed === undefined ? undefined : reload(options, resumed);
  const frame = await openRun(
    planner.name,
    options,
    { input: request, ...forkedFromFields(options.forkedFrom) },
    { resumed, features: options.features ?? standardFeatures },
  );
  const planning = new Planning(planner, request, frame.span, frame.state, options, resumed);
  let ending: RunEnding | undefined;
  try {
    ending =
      resumed === undefined || workflow === undefined
        ? await planning.run(limits)
        : await planning.resume(
            limits,
            workflow,
            resumed,
            (options as ResumePlanOptions).decisions,
          );
  } finally {
    await frame.close(ending);
  }
  const body = planning.pausedBody();
  const paused = body === undefined ? undefined : await sealState(body, options.stateSecret);
  return planning.result(ending, paused);
}

/** The paused plan's workflow, loaded again with this run's tools and agents. */
function reload(options: PlanAndRunOptions, resumed: PlanStateSnapshot): Workflow {
  const last = resumed.plans.at(-1);
  try {
    return loadPlan(last?.text ?? '', last?.revision ?? 1, options);
  } catch (error) {
    if (!(error instanceof WorkflowLoadError)) throw error;
    throw new ConfigurationError({
      option: 'state',
      message: `The paused plan no longer loads with the tools and agents given: ${error.message}. Resume it with the tools and agents it was planned with.`,
    });
  }
}

function planLimits(planner: AnyAgent, request: string, options: PlanAndRunOptions): PlanLimits {
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
