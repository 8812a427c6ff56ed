import type OpenAI from 'openai';
import type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../../../kernel/model/language-model.js';
import type { ToolCallRequest } from '../../../kernel/protocol/message.js';
import { IncrementalConverter } from '../incremental-conversion.js';
import { modelSettings } from '../model-settings.js';
import { serverOf } from '../server-of.js';
import { toModelCallError } from '../provider-error.js';
import { readSseJson } from '../sse-json.js';
import { appendChatMessage, toChatTools } from './convert-to-openai-chat.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import { lazyOpenAIClient } from './openai-client.js';
import { jsonSchemaFormat, samplingParams } from './openai-request.js';
import { openaiUsage } from './openai-usage.js';
import type { OpenAIModelOptions } from './openai-options.js';
import { defined } from '../../../kernel/util/defined.js';

/** Where the `openai` client sends requests when given no base URL. */
export const openaiBaseURL = 'https://api.openai.com/v1';

type ChatParams = Omit<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, 'stream'>;

/** A model served by OpenAI's Chat Completions API through the official `openai` client. */
export function openaiChatModel(modelId: string, options: OpenAIModelOptions = {}): LanguageModel {
  const client = lazyOpenAIClient(options, 'openai');
  const converter = new IncrementalConverter<OpenAI.Chat.Completions.ChatCompletionMessageParam>(
    appendChatMessage,
  );

  function params(request: ModelRequest): ChatParams {
    const messages = converter.convert(request.messages);
    return {
      model: modelId,
      messages:
        request.instructions === ''
          ? messages
          : [{ role: 'system', content: request.instructions }, ...messages],
      ...(request.tools.length === 0 ? {} : { tools: toChatTools(request.tools) }),
      // Chat Completions takes up to four stop sequences.
      ...(request.stopSequences === undefined || request.stopSequences.length === 0
        ? {}
        : { stop: request.stopSequences.slice(0, 4) }),
      ...(request.responseFormat === undefined
        ? {}
        : {
            response_format: {
              type: 'json_schema',
              json_schema: jsonSchemaFormat(request.responseFormat),
            },
          }),
      ...samplingParams(options, 'max_completion_tokens'),
    };
  }

  return {
    specificationVersion: 'v1',
    provider: 'openai.chat',
    modelId,
    settings: modelSettings(options),
    ...defined('server', serverOf(options.client?.baseURL ?? options.baseURL, openaiBaseURL)),
    async generate(request): Promise<ModelResponse> {
      try {
        const completion = await client().chat.completions.create(
          { ...params(request), stream: false },
          defined('signal', request.abortSignal),
        );
        const choice = completion.choices[0];
        const toolCalls: ToolCallRequest[] = (choice?.message.tool_calls ?? []).flatMap(call =>
          call.type === 'function'
            ? [
                {
                  callId: call.id,
                  toolName: call.function.name,
                  argumentsText: call.function.arguments,
                },
              ]
            : [],
        );
        // A refusal is what the model said instead of an answer: its text, withheld output.
        const refusal = choice?.message.refusal ?? undefined;
        return {
          text: choice?.message.content ?? refusal ?? '',
          toolCalls,
          finishReason:
            refusal === undefined ? mapOpenAIFinishReason(choice?.finish_reason) : 'content_filter',
          usage: openaiUsage(completion.usage),
          ...defined('responseId', completion.id || undefined),
          ...defined('responseModel', completion.model || undefined),
        };
      } catch (error) {
        throw toModelCallError(error, 'OpenAI');
      }
    },
    stream: request => streamChat(client, params(request), request.abortSignal),
  };
}

async function* streamChat(
  client: () => OpenAI,
  params: ChatParams,
  abortSignal: AbortSignal | undefined,
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const callIds = new Map<number, string>();
  let finishReason: string | null | undefined;
  let refused = false;
  let usage = { promptTokens: 0, completionTokens: 0 };
  const answered: { id?: string; model?: string } = {};
  try {
    const response = await client()
      .chat.completions.create(
        { ...params, stream: true, stream_options: { include_usage: true } },
        defined('signal', abortSignal),
      )
      .asResponse();
    for await (const { data } of readSseJson(response, 'OpenAI')) {
      const chunk = data as OpenAI.Chat.Completions.ChatCompletionChunk;
      if (chunk.usage) usage = openaiUsage(chunk.usage);
      if (chunk.id) answered.id ??= chunk.id;
      if (chunk.model) answered.model ??= chunk.model;
      const choice = chunk.choices[0];
      if (choice === undefined) continue;
      if (typeof choice.delta.content === 'string' && choice.delta.content !== '') {
        yield { type: 'text-delta', text: choice.delta.content };
      }
      const { refusal } = choice.delta;
      if (typeof refusal === 'string' && refusal !== '') {
        refused = true;
        yield { type: 'text-delta', text: refusal };
      }
      for (const fragment of choice.delta.tool_calls ?? []) {
        const known = callIds.get(fragment.index);
        const callId = known ?? fragment.id ?? `call_${fragment.index}`;
        if (known === undefined) {
          callIds.set(fragment.index, callId);
          yield { type: 'tool-call-start', callId, toolName: fragment.function?.name ?? '' };
        }
        const delta = fragment.function?.arguments;
        if (delta !== undefined && delta !== '')
          yield { type: 'tool-call-delta', callId, argumentsDelta: delta };
      }
      if (choice.finish_reason !== null && choice.finish_reason !== undefined)
        finishReason = choice.finish_reason;
    }
  } catch (error) {
    throw toModelCallError(error, 'OpenAI');
  }
  if (finishReason === undefined) return; // cut mid-way: the assembler reports an interrupted stream
  for (const callId of callIds.values()) yield { type: 'tool-call-end', callId };
  yield {
    type: 'finish',
    finishReason: refused ? 'content_filter' : mapOpenAIFinishReason(finishReason),
    usage,
    ...defined('responseId', answered.id),
    ...defined('responseModel', answered.model),
  };
}
