import type { FinishReason, Message, ToolDefinition } from '@agent-trace/core';
import type { BridgedCallEnd } from '@agent-trace/core/record';
import { conversationOf } from '../to-model-request.js';

/** A response span's data, as the SDK's OpenAI model (and `openaiAgentsModel`) fill it. */
export interface ResponseSpanData {
  readonly type: 'response';
  readonly response_id?: string;
  readonly _input?: string | readonly Record<string, unknown>[];
  readonly _response?: Record<string, unknown>;
}

/** A model call read from a response span: what it was asked and what it answered. */
export interface ResponseCall {
  readonly provider: string;
  readonly model: string;
  readonly instructions: string;
  readonly tools: readonly ToolDefinition[];
  /** The messages of the request's input items from `from` on. */
  readonly messages: readonly Message[];
  /** How many input items the request held. */
  readonly items: number;
  readonly end: BridgedCallEnd;
}

interface WireOutputItem {
  readonly type?: string;
  readonly content?: ReadonlyArray<{ readonly type?: string; readonly text?: string }>;
  readonly call_id?: string;
  readonly name?: string;
  readonly arguments?: string;
}

interface WireUsage {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly input_tokens_details?: { readonly cached_tokens?: number };
}

/**
 * Reads a response span: the request from `_input` (the SDK's input items), the instructions,
 * tools, model, answer and usage from `_response` (the Responses API's response object). A span
 * without them (tracing without sensitive data) gives an empty conversation and answer.
 */
export function responseCall(data: ResponseSpanData, error: unknown, from = 0): ResponseCall {
  const response = (data._response ?? {}) as {
    model?: string;
    provider?: string;
    status?: string;
    incomplete_details?: { reason?: string } | null;
    instructions?: unknown;
    tools?: ReadonlyArray<Record<string, unknown>>;
    output?: readonly WireOutputItem[];
    usage?: WireUsage;
  };
  const input = data._input ?? [];
  const items = typeof input === 'string' ? [{ role: 'user', content: input }] : input;
  const { system, messages } = conversationOf(items.slice(from));
  if (typeof response.instructions === 'string') system.unshift(response.instructions);
  const output = response.output ?? [];
  const toolCalls = output
    .filter(item => item.type === 'function_call')
    .map(item => ({
      callId: item.call_id ?? '',
      toolName: item.name ?? '',
      argumentsText: item.arguments ?? '',
    }));
  const model = response.model ?? '';
  const provider = response.provider ?? 'openai';
  return {
    provider,
    model,
    instructions: system.join('\n\n'),
    tools: (response.tools ?? []).flatMap(tool =>
      tool.type === 'function'
        ? [
            {
              name: String(tool.name),
              description: typeof tool.description === 'string' ? tool.description : '',
              inputSchema: (tool.parameters ?? {}) as Readonly<Record<string, unknown>>,
            },
          ]
        : [],
    ),
    messages,
    items: items.length,
    end: {
      provider,
      model,
      text: output
        .filter(item => item.type === 'message')
        .flatMap(item => (item.content ?? []).map(part => part.text ?? ''))
        .join(''),
      toolCalls,
      finishReason: finishReasonOf(response, toolCalls.length > 0),
      usage: {
        promptTokens: response.usage?.input_tokens ?? 0,
        completionTokens: response.usage?.output_tokens ?? 0,
        ...(response.usage?.input_tokens_details?.cached_tokens
          ? { cacheReadTokens: response.usage.input_tokens_details.cached_tokens }
          : {}),
      },
      ...(error === undefined ? {} : { error }),
    },
  };
}

/** The Responses API's status as a finish reason. */
function finishReasonOf(
  response: { status?: string; incomplete_details?: { reason?: string } | null },
  calls: boolean,
): FinishReason {
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    return reason === 'max_output_tokens'
      ? 'length'
      : reason === 'content_filter'
        ? 'content_filter'
        : 'other';
  }
  return calls ? 'tool_calls' : 'stop';
}
