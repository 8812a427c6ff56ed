import type { ModelResponse } from '../../model/language-model.js';
import type { TraceEventFields } from '../../trace/run-tracer.js';
import type { TraceError } from '../../protocol/trace-event.js';
import type { Writable } from '../../util/writable.js';
import { toTraceReasoning } from '../../protocol/reasoning.js';

/**
 * Which model call an `llm_start` / `llm_end` is about. The event fields are built property by
 * property, never by spreading one object into another: these run several times per step, and
 * V8 builds spread literals through a slow generic path once it has seen several shapes.
 */
export interface LlmIdentity {
  readonly model: string;
  readonly provider: string;
  readonly step: number;
  /** Set on a retry or a fallback model. */
  readonly attempt: number | undefined;
}

function identityFields(identity: LlmIdentity): {
  model: string;
  provider: string;
  step: number;
  attempt?: number;
} {
  const fields: { model: string; provider: string; step: number; attempt?: number } = {
    model: identity.model,
    provider: identity.provider,
    step: identity.step,
  };
  if (identity.attempt !== undefined) fields.attempt = identity.attempt;
  return fields;
}

/** The hash of each part of a model request, as `llm_start` records it. */
export type RequestParts = NonNullable<TraceEventFields<'llm_start'>['request_parts']>;

/** A tool definition as `agent_start` records it. */
export type TraceToolDefinition = NonNullable<
  TraceEventFields<'agent_start'>['tool_definitions']
>[number];

/** The fields of `llm_start`. */
export function llmStartFields(
  identity: LlmIdentity,
  request: {
    messages: TraceEventFields<'llm_start'>['messages'];
    /** Set when a feature rewrote messages the trace held: how many of them the request keeps. */
    kept?: number | undefined;
    /** Set on the entry agent's first request of a run with a history the trace holds. */
    fromHistory?: number | undefined;
    messageCount: number;
    requestHash: string;
    requestParts: RequestParts | undefined;
    modelSettings: Readonly<Record<string, unknown>> | undefined;
    finalOutput: boolean;
    /** Set when the call is streamed. */
    streamed?: boolean;
    /** Where the request goes, for a model served over the network. */
    server?: { readonly address: string; readonly port: number } | undefined;
  },
): TraceEventFields<'llm_start'> {
  const fields: Writable<TraceEventFields<'llm_start'>> = identityFields(identity) as Writable<
    TraceEventFields<'llm_start'>
  >;
  fields.messages = request.messages;
  if (request.kept !== undefined) fields.kept = request.kept;
  if (request.fromHistory !== undefined) fields.from_history = request.fromHistory;
  fields.message_count = request.messageCount;
  fields.request_hash = request.requestHash;
  if (request.requestParts !== undefined) fields.request_parts = request.requestParts;
  if (request.modelSettings !== undefined && Object.keys(request.modelSettings).length > 0)
    fields.model_settings = { ...request.modelSettings };
  if (request.finalOutput) fields.phase = 'final_output';
  if (request.streamed === true) fields.stream = true;
  if (request.server !== undefined)
    fields.server = { address: request.server.address, port: request.server.port };
  return fields;
}

/** The fields of a successful `llm_end`. */
export function llmEndFields(
  identity: LlmIdentity,
  response: ModelResponse,
  /** In US dollars; undefined when the model has no price. */
  cost: number | undefined,
  /** A streamed call's first chunk and chunk count. */
  timing?: { readonly firstChunkMs: number | undefined; readonly chunks: number },
): Omit<TraceEventFields<'llm_end'>, 'duration_ms'> {
  const fields = identityFields(identity) as Writable<
    Omit<TraceEventFields<'llm_end'>, 'duration_ms'>
  >;
  fields.text = response.text;
  fields.tool_calls = response.toolCalls.map(call => ({
    call_id: call.callId,
    tool: call.toolName,
    arguments: call.argumentsText,
  }));
  fields.finish_reason = response.finishReason;
  if (response.reasoning !== undefined && response.reasoning.length > 0)
    fields.reasoning = toTraceReasoning(response.reasoning);
  fields.tok_prompt = response.usage.promptTokens;
  fields.tok_completion = response.usage.completionTokens;
  if (response.usage.cacheReadTokens !== undefined)
    fields.tok_cache_read = response.usage.cacheReadTokens;
  if (response.usage.cacheWriteTokens !== undefined)
    fields.tok_cache_write = response.usage.cacheWriteTokens;
  if (response.usage.reasoningTokens !== undefined)
    fields.tok_reasoning = response.usage.reasoningTokens;
  if (cost !== undefined) fields.cost_usd = cost;
  if (response.cacheHit === true) fields.cache_hit = true;
  if (response.responseId !== undefined) fields.response_id = response.responseId;
  if (response.responseModel !== undefined) fields.response_model = response.responseModel;
  if (timing?.firstChunkMs !== undefined) fields.first_chunk_ms = timing.firstChunkMs;
  if (timing !== undefined) fields.chunks = timing.chunks;
  return fields;
}

/** The fields of an `llm_end` for a call that failed. */
export function llmFailedFields(
  identity: LlmIdentity,
  error: TraceError,
): Omit<TraceEventFields<'llm_end'>, 'duration_ms'> {
  const fields = identityFields(identity) as Writable<
    Omit<TraceEventFields<'llm_end'>, 'duration_ms'>
  >;
  fields.tok_prompt = 0;
  fields.tok_completion = 0;
  fields.error = error;
  return fields;
}
