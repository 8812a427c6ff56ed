import type { GuardrailFinding } from '../../agent/guardrail.js';
import type { PendingApproval } from '../../protocol/approval.js';
import type { RunStateSnapshot } from '../pause/run-snapshot.js';
import type { Message } from '../../protocol/message.js';
import type { Usage } from '../../protocol/usage.js';
import type { HandoffRecord, StepResult, ToolCallRecord } from '../../protocol/records.js';
import type { StopReason } from '../../protocol/stop-reason.js';

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
  /** The calls waiting for a person's approval when the run stopped `interrupted`; else empty. */
  readonly interruptions: readonly PendingApproval[];
  /**
   * Set when the run paused for approval: plain, versioned JSON to store anywhere and pass to
   * `resume` with the decisions, in this process or another.
   */
  readonly state: RunStateSnapshot | undefined;
}
