import type { GuardrailFinding } from '../guardrail/run-guardrails.js';
import type { FinishReason } from '../model/finish-reason.js';
import type { Message } from '../model/message.js';
import type { Usage } from '../model/usage.js';
import type { StopReason } from './stop-reason.js';

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

/** One step: a model call and the tool calls it asked for. */
export interface StepResult {
  /** 1-based, across the run. */
  readonly index: number;
  readonly agent: string;
  readonly text: string;
  readonly toolCalls: readonly ToolCallRecord[];
  readonly finishReason: FinishReason;
  readonly usage: Usage;
}

/**
 * The type of `result.output`: the text for a plain agent; for an agent with an output schema, the
 * decoded value, or undefined when the run did not complete.
 */
export type RunOutput<Output> = string extends Output ? Output : Output | undefined;

/** What a run produced and why it stopped. */
export interface RunResult<Output = string> {
  /**
   * The final answer of the agent that finished (the entry agent, or the last one handed off
   * to): the text of its last model call or, when that agent has an output schema, the decoded
   * value (undefined unless the run completed). The type follows the entry agent's schema; after a
   * handoff to an agent with another one, narrow it yourself.
   */
  readonly output: RunOutput<Output>;
  /** The text of the last model call (for a structured answer, its JSON). */
  readonly text: string;
  readonly stopReason: StopReason;
  /** The conversation history of the agent that finished. */
  readonly messages: readonly Message[];
  readonly steps: readonly StepResult[];
  readonly toolCalls: readonly ToolCallRecord[];
  readonly usage: Usage;
  /** The run id, as written in every trace event. */
  readonly runId: string;
  /** The agent that produced the output. */
  readonly agent: string;
  /** What ended the run, when `stopReason` is `error`, `aborted` or `timeout`. */
  readonly error: Error | undefined;
  /** The limit that stopped the run, e.g. `{ name: 'maxSteps', value: 10 }`. */
  readonly limit: { readonly name: string; readonly value: number } | undefined;
  /** Why the run stopped, for people; set when a limit, policy or stop condition ended it. */
  readonly detail: string | undefined;
  /** Tools declared unavailable after failing, the run going on without them. */
  readonly degradedTools: readonly string[];
  /** Every guardrail verdict that was not `allow` (warnings and the block, if any), in order. */
  readonly guardrails: readonly GuardrailFinding[];
  /** Every handoff and delegation, in the order they started. */
  readonly handoffs: readonly HandoffRecord[];
  /** Failures of trace sinks. The run went on without them; their traces are incomplete. */
  readonly traceErrors: readonly Error[];
}
