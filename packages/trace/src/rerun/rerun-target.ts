import { run, type AnyAgent, type RunOptions, type RunResult } from '@agent-trace/core';
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
 * an agent with `run`, a workflow with `runWorkflow`, a planned run with `planAndRun`.
 */
export async function runTarget(
  target: RerunTarget,
  recording: Recording,
  options: Omit<RunOptions, 'history'>,
): Promise<TargetResult> {
  if ('toolRegistry' in target) return run(target, recording.input, options);
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
