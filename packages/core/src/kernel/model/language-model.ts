import type { FinishReason } from '../protocol/finish-reason.js';
import type { Message, ToolCallRequest } from '../protocol/message.js';
import type { ReasoningPart } from '../protocol/reasoning.js';
import type { Usage } from '../protocol/usage.js';

/** A tool as the model sees it: name, description and a JSON Schema of its input. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/**
 * Everything a model call needs. `messages` is the live, append-only history of the agent: it is
 * valid for the duration of the call and must be copied by a model that keeps it afterwards.
 */
export interface ModelRequest {
  /** The agent's system instructions. */
  readonly instructions: string;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolDefinition[];
  /** Fires when the run is aborted; a model should stop its request when it does. */
  readonly abortSignal?: AbortSignal;
  /** The name of the agent making the call (for fakes and logs). */
  readonly agentName: string;
  /**
   * The span of the agent's turn making the call (its `agent_start`'s `span_id`), when a traced
   * run makes it: a rerun answers each turn of an agent asked twice at once from that turn's own
   * recorded calls.
   */
  readonly agentSpanId?: string;
  /**
   * Texts at which the model should stop writing (an agent in ReAct mode sends `\nObservation:`).
   * Sent to providers that take them; others ignore them.
   */
  readonly stopSequences?: readonly string[];
  /**
   * Asks for the answer as JSON matching this JSON Schema (structured output). Only sent in the
   * final-output phase, with no tools.
   */
  readonly responseFormat?: {
    readonly name: string;
    readonly schema: Readonly<Record<string, unknown>>;
  };
}

/** A complete model answer, as `generate` returns it and as the stream assembles it. */
export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ToolCallRequest[];
  /** What the model thought before it answered, in the order it came; absent: nothing said. */
  readonly reasoning?: readonly ReasoningPart[];
  readonly finishReason: FinishReason;
  readonly usage: Usage;
  /** Set when the answer came from a cache (`cachedModel`): it cost nothing. */
  readonly cacheHit?: true;
  /** The provider's id of the answer (`chatcmpl-…`, `msg_…`), when it gives one. */
  readonly responseId?: string;
  /** The model the provider says answered, which can differ from the one asked for. */
  readonly responseModel?: string;
}

/**
 * One part of a streamed model answer. Tool call arguments arrive in fragments keyed by `callId`;
 * `finish` comes last and carries the finish reason and usage.
 */
export type ModelStreamPart =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-call-start'; readonly callId: string; readonly toolName: string }
  | { readonly type: 'tool-call-delta'; readonly callId: string; readonly argumentsDelta: string }
  | { readonly type: 'tool-call-end'; readonly callId: string }
  /** A piece of a reasoning part's text; the part stays open until its `reasoning-end`. */
  | { readonly type: 'reasoning-delta'; readonly text: string }
  /** Closes the open reasoning part (or adds one with no text) with what the provider wants back. */
  | {
      readonly type: 'reasoning-end';
      readonly provider?: string;
      readonly id?: string;
      readonly opaque?: string;
      readonly redacted?: true;
    }
  | {
      readonly type: 'finish';
      readonly finishReason: FinishReason;
      readonly usage: Usage;
      /** Set when the answer came from a cache. */
      readonly cacheHit?: true;
      /** The provider's id of the answer, and the model it says answered. */
      readonly responseId?: string;
      readonly responseModel?: string;
    };

/**
 * The provider-neutral model interface. Adapters (OpenAI, Anthropic) and fakes implement it; the
 * agent loop is the only caller. Failures are thrown as `ModelCallError`s.
 */
export interface LanguageModel {
  readonly specificationVersion: 'v1';
  /** Who serves the model, e.g. `openai.chat`, `anthropic.messages`, `fake`. */
  readonly provider: string;
  /** The model's name, e.g. `gpt-4o-mini`. */
  readonly modelId: string;
  /**
   * The options that change its answers (temperature, output token limit, …), recorded on
   * `llm_start` so that a replay notices when they change.
   */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** The host and port the model's requests go to, for a model served over the network. */
  readonly server?: { readonly address: string; readonly port: number };
  /** Answers the request in one piece. */
  generate(request: ModelRequest): Promise<ModelResponse>;
  /** Answers the request as a stream of parts. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}

/** True when `value` looks like a {@link LanguageModel}. */
export function isLanguageModel(value: unknown): value is LanguageModel {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<LanguageModel>;
  return (
    candidate.specificationVersion === 'v1' &&
    typeof candidate.generate === 'function' &&
    typeof candidate.stream === 'function'
  );
}
