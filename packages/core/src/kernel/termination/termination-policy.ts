import type { ModelResponse } from '../model/language-model.js';
import type { ToolCallRequest } from '../protocol/message.js';
import type { Usage } from '../protocol/usage.js';
import type { StopLimit, StopReason } from '../protocol/stop-reason.js';

/** What the loop knows when it decides how to go on after a model response. */
export interface TerminationContext {
  /** The model call just answered (1-based, per agent). */
  readonly step: number;
  /** Tool calls run so far in this agent's turn, by tool name. */
  readonly toolCallCounts: ReadonlyMap<string, number>;
  /** Tool calls run so far, by tool name + canonical arguments. */
  readonly callFingerprints: ReadonlyMap<string, number>;
  /** Token usage of the run so far, this response included. */
  readonly usage: Usage;
  /** The fingerprint of a call: its tool name and canonical arguments. */
  fingerprint(call: ToolCallRequest): string;
}

/** How to go on after a model response. */
export type TerminationDecision =
  | { readonly kind: 'run_tools'; readonly toolCalls: readonly ToolCallRequest[] }
  | { readonly kind: 'finish'; readonly output: string }
  /**
   * Pause the run: it waits for something outside it (a person's approval, an event). The run
   * ends with `interrupted`, its trace sealed.
   */
  | { readonly kind: 'interrupt'; readonly reason: string }
  | {
      readonly kind: 'stop';
      readonly reason: StopReason;
      /** What happened, for people: "tool 'search' asked a 3rd time with the same arguments". */
      readonly detail: string;
      readonly limit?: StopLimit;
    };

/** A strategy that decides, after each model response, whether the loop goes on. */
export interface TerminationPolicy {
  decide(response: ModelResponse, context: TerminationContext): TerminationDecision;
}

/**
 * Decides by the response alone, with finish reasons normalised across providers: tool calls are
 * run whatever the finish reason (some providers say `stop` for a tool call); text without tool
 * calls is the answer (also when cut by `length`); an empty answer finishes with empty output.
 */
export const standardPolicy: TerminationPolicy = Object.freeze({
  decide(response: ModelResponse): TerminationDecision {
    if (response.toolCalls.length > 0) return { kind: 'run_tools', toolCalls: response.toolCalls };
    return { kind: 'finish', output: response.text };
  },
});
