import type { Usage } from '../protocol/usage.js';
import type { StepResult, ToolCallRecord } from '../protocol/records.js';

/** What a stop condition sees after each step. */
export interface StopConditionState {
  readonly steps: readonly StepResult[];
  readonly toolCalls: readonly ToolCallRecord[];
  readonly usage: Usage;
}

/**
 * A user-defined reason to stop: checked after every step (a model call and its tools); when it
 * returns true the run ends, `completed`, with the last text as output.
 */
export type StopCondition = (state: StopConditionState) => boolean;

/** Stops once a call to one of `toolNames` has run. */
export function hasToolCall(...toolNames: string[]): StopCondition {
  return ({ steps }) =>
    steps.at(-1)?.toolCalls.some(call => toolNames.includes(call.toolName)) ?? false;
}

/** Stops once `count` steps have run (named as the Vercel AI SDK's condition). */
export function stepCountIs(count: number): StopCondition {
  return ({ steps }) => steps.length >= count;
}
