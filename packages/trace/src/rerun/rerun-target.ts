import { resume, run, type AnyAgent, type RunOptions, type RunResult } from '@agent-trace/core';
import type { ApprovalDecision, PendingApproval } from '@agent-trace/core/approval';
import type {
  PlanAndRunOptions,
  PlanResult,
  Workflow,
  WorkflowResult,
} from '@agent-trace/core/workflow';
import type { Recording } from './recording.js';

/**
 * A planned run as the code defines it today: the planner, and the tools, agents and limits its
 * plans may use. Rerun or forked, the planner answers from its recorded model calls, so the plans
 * are the recorded ones as long as today's planner asks the same.
 */
export interface PlanTarget extends Pick<
  PlanAndRunOptions,
  'tools' | 'agents' | 'maxPlans' | 'maxReplans'
> {
  readonly planner: AnyAgent;
}

/** What a recorded run is rerun or forked with: its entry agent, its workflow, or its planner. */
export type RerunTarget = AnyAgent | Workflow | PlanTarget;

/** What running a {@link RerunTarget} gives. */
export type TargetResult = RunResult<unknown> | WorkflowResult | PlanResult;

/** True when `target` is a planned run's planner and catalog. */
export function isPlanTarget(target: RerunTarget): target is PlanTarget {
  return 'planner' in target && !('toolRegistry' in target);
}

/**
 * Runs `target` on the recording's input with `options` (overrides, sinks, where it forked from):
 * an agent with `run`, a workflow with `runWorkflow`, a planned run with `planAndRun`. An agent
 * starts from the conversation the recorded run started from, unless `options.history` gives
 * another (what if the conversation had been this).
 */
export async function runTarget(
  target: RerunTarget,
  recording: Recording,
  { history, ...options }: RunOptions,
): Promise<TargetResult> {
  if ('toolRegistry' in target) {
    const from = history ?? recording.history;
    return run(target, recording.input, {
      ...options,
      ...(from.length === 0 ? {} : { history: from }),
    });
  }
  // Loaded only for workflows and plans: it needs the optional peer `yaml`, which a project
  // that reruns agents alone need not install.
  const { planAndRun, runWorkflow } = await import('@agent-trace/core/workflow');
  if (isPlanTarget(target)) {
    const { planner, ...catalog } = target;
    return planAndRun(planner, recording.input, { ...options, ...catalog });
  }
  const { forkedFrom: _unused, ...workflowOptions } = options;
  return runWorkflow(target, recording.workflowInput, workflowOptions);
}

/** The state a run paused with for people's decisions, if it paused. */
function pausedState(result: TargetResult): NonNullable<TargetResult['state']> | undefined {
  return result.stopReason === 'interrupted' ? result.state : undefined;
}

/**
 * Runs `target` as {@link runTarget} does, then goes on from each pause with the decisions the
 * recording went on with (approve, reject or edit, and who decided), as `resume`,
 * `resumeWorkflow` or `resumePlan` would in the process that resumed it. A decision in `given`
 * (naming the waiting call by its id, or by its tool's name) takes the place of the recorded
 * one, and answers a pause the recording was never resumed from (what a fork decides anew). A
 * pause with a call that nothing decides ends the run there, as it did.
 */
export async function runTargetAsRecorded(
  target: RerunTarget,
  recording: Recording,
  options: RunOptions,
  given: readonly ApprovalDecision[] = [],
): Promise<TargetResult> {
  let result = await runTarget(target, recording, options);
  for (let pause = 0; ; pause++) {
    const state = pausedState(result);
    if (state === undefined) return result;
    const decisions = decide(result.interruptions, recording.decisionsAfter(pause) ?? [], given);
    if (decisions === undefined) return result;
    result = await resumeTarget(target, state, decisions, options);
  }
}

/** A decision for each waiting call (given first, then recorded), or undefined when one has none. */
function decide(
  waiting: readonly PendingApproval[],
  recorded: readonly ApprovalDecision[],
  given: readonly ApprovalDecision[],
): ApprovalDecision[] | undefined {
  const decisions: ApprovalDecision[] = [];
  for (const call of waiting) {
    const chosen =
      given.find(each => each.callId === call.callId) ??
      given.find(each => each.callId === call.toolName) ??
      recorded.find(each => each.callId === call.callId);
    if (chosen === undefined) return undefined;
    decisions.push({ ...chosen, callId: call.callId });
  }
  return decisions.length === 0 ? undefined : decisions;
}

async function resumeTarget(
  target: RerunTarget,
  state: NonNullable<TargetResult['state']>,
  decisions: readonly ApprovalDecision[],
  options: RunOptions,
): Promise<TargetResult> {
  // A paused run goes on from its state, which holds its conversation: no history is given, so
  // none of it is carried from an earlier turn either.
  const { forkedFrom: _unused, history: _started, conversation, ...resumeOptions } = options;
  const { carried: _none, ...turnOf } = conversation ?? {};
  const turn = conversation === undefined ? {} : { conversation: turnOf as typeof conversation };
  const given = { ...resumeOptions, ...turn, decisions: [...decisions] };
  if ('toolRegistry' in target) return resume(target, state as never, given);
  const { resumePlan, resumeWorkflow } = await import('@agent-trace/core/workflow');
  if (isPlanTarget(target)) {
    const { planner, ...catalog } = target;
    return resumePlan(planner, state as never, { ...given, ...catalog });
  }
  return resumeWorkflow(target, state as never, given);
}
