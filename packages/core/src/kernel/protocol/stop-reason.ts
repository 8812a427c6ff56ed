/**
 * Why a run (or one agent within it) stopped. Every run ends with exactly one, written to
 * `agent_end` and `run_end`. A limit is a result, not a crash.
 */
export type StopReason =
  | 'completed'
  | 'max_steps'
  | 'duplicate_tool_call'
  | 'tool_call_limit'
  | 'handoff_depth_exceeded'
  | 'handoff_cycle'
  | 'guardrail_blocked'
  | 'tool_failure_degraded'
  | 'output_decoding_failed'
  | 'malformed_answer_limit'
  | 'budget_exceeded'
  | 'workflow_step_failed'
  | 'plan_refused'
  | 'interrupted'
  | 'aborted'
  | 'timeout'
  | 'error';

/** Every stop reason. */
export const stopReasons: readonly StopReason[] = [
  'completed',
  'max_steps',
  'duplicate_tool_call',
  'tool_call_limit',
  'handoff_depth_exceeded',
  'handoff_cycle',
  'guardrail_blocked',
  'tool_failure_degraded',
  'output_decoding_failed',
  'malformed_answer_limit',
  'budget_exceeded',
  'workflow_step_failed',
  'plan_refused',
  'interrupted',
  'aborted',
  'timeout',
  'error',
];

/** The limit that stopped a run, as `agent_end` and `run_end` record it. */
export interface StopLimit {
  readonly name: string;
  readonly value: number;
  /**
   * How much of it was used when it stopped the run, where that is more than this run's own (a
   * shared budget's dollars, every run's): a rerun of this run alone starts from it.
   */
  readonly spent?: number;
}
