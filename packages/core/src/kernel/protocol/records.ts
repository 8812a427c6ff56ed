import type { MalformedAnswerProblem } from './malformed-answer.js';
import type { FinishReason } from './finish-reason.js';
import type { Usage } from './usage.js';

/** One tool call of a run, with what came of it. */
export interface ToolCallRecord {
  readonly callId: string;
  readonly toolName: string;
  readonly agent: string;
  /** The parsed arguments (the raw text when they were not JSON). */
  readonly args: unknown;
  /** The tool's return value; undefined when it failed. */
  readonly result: unknown;
  /** The error message the LLM was told; undefined when the call succeeded. */
  readonly error: string | undefined;
  /** From the first attempt's start to the last attempt's end. */
  readonly durationMs: number;
  /** How many times the tool ran (1 + retries). */
  readonly attempts: number;
}

/** A handoff or delegation that happened in a run. */
export interface HandoffRecord {
  readonly from: string;
  readonly to: string;
  readonly depth: number;
  readonly mode: 'pass_control' | 'return_to_caller';
  /** False when it was refused (a cycle, or too deep). */
  readonly accepted: boolean;
}

/** How a model answer in ReAct mode was read: the thought, and the action, answer or problem. */
export interface ReActRecord {
  readonly thought: string;
  /** The tool asked for and its input (the observation is the tool call's result or error). */
  readonly action?: { readonly tool: string; readonly input: unknown };
  /** The Final Answer. */
  readonly finalAnswer?: string;
  /** Why the answer was not a ReAct step; the model was told so and asked again. */
  readonly malformed?: MalformedAnswerProblem;
  /** What the model was told back: the tool's result or error, or what was malformed. */
  readonly observation?: string;
}

/** One step: a model call and the tool calls it asked for. */
export interface StepResult {
  /** 1-based, across the run. */
  readonly index: number;
  readonly agent: string;
  readonly text: string;
  readonly toolCalls: readonly ToolCallRecord[];
  readonly finishReason: FinishReason;
  readonly usage: Usage;
  /** Set for an agent in ReAct mode: how the answer was read. */
  readonly react?: ReActRecord;
}
