import Anthropic from '@anthropic-ai/sdk';
import type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../../../kernel/model/language-model.js';
import type { ToolCallRequest } from '../../../kernel/protocol/message.js';
import type { Usage } from '../../../kernel/protocol/usage.js';
import { IncrementalConverter } from '../incremental-conversion.js';
import { loadApiKey } from '../load-api-key.js';
import { modelSettings } from '../model-settings.js';
import { toModelCallError } from '../provider-error.js';
import { readSseJson } from '../sse-json.js';
import { appendAnthropicMessage, toAnthropicTools } from './convert-to-anthropic.js';
import type { AnthropicModelOptions } from './anthropic-options.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { defined } from '../../../kernel/util/defined.js';
import { serverOf } from '../server-of.js';

type MessageParams = Omit<Anthropic.MessageCreateParamsNonStreaming, 'stream'>;

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Input tokens counted the way agent-trace does: cached ones included, and also reported apart. */
function toUsage(usage: AnthropicUsage, outputTokens = usage.output_tokens ?? 0): Usage {
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  return {
    promptTokens: (usage.input_tokens ?? 0) + cacheWrite + cacheRead,
    completionTokens: outputTokens,
    ...(cacheRead > 0 ? { cacheReadTokens: cacheRead } : {}),
    ...(cacheWrite > 0 ? { cacheWriteTokens: cacheWrite } : {}),
  };
}

/** `start`'s counts, with those `delta` gives (not null) in their place. */
function finalUsage(start: AnthropicUsage, delta: AnthropicUsage): AnthropicUsage {
  const counts: AnthropicUsage = { ...start };
  for (const key of [
    'input_tokens',
    'cache_creation_input_tokens',
    'cache_read_input_tokens',
  ] as const) {
    const count = delta[key];
    if (typeof count === 'number') counts[key] = count;
  }
  return counts;
}

/** A model served by Anthropic's Messages API through the official `@anthropic-ai/sdk` client. */
export function anthropicMessagesModel(
  modelId: string,
  options: AnthropicModelOptions = {},
): LanguageModel {
  let client = options.client;
  const getClient = (): Anthropic => {
    client ??= new Anthropic({
      apiKey: loadApiKey({
        apiKey: options.apiKey,
        environmentVariable: 'ANTHROPIC_API_KEY',
        providerName: 'Anthropic',
        factory: 'anthropic',
      }),
      maxRetries: 0,
      ...defined('baseURL', options.baseURL),
      ...defined('fetch', options.fetch),
    });
    return client;
  };
  const converter = new IncrementalConverter<Anthropic.MessageParam>(appendAnthropicMessage);

  const params = (request: ModelRequest): MessageParams => ({
    model: modelId,
    max_tokens: options.maxOutputTokens ?? 4096,
    messages: converter.convert(request.messages),
    ...(request.instructions === '' ? {} : { system: request.instructions }),
    ...(request.tools.length === 0 ? {} : { tools: toAnthropicTools(request.tools) }),
    ...(request.stopSequences === undefined || request.stopSequences.length === 0
      ? {}
      : { stop_sequences: [...request.stopSequences] }),
    ...defined('temperature', options.temperature),
  });

  return {
    specificationVersion: 'v1',
    provider: 'anthropic.messages',
    modelId,
    settings: modelSettings(options),
    ...defined(
      'server',
      serverOf(options.client?.baseURL ?? options.baseURL, 'https://api.anthropic.com'),
    ),
    async generate(request): Promise<ModelResponse> {
      try {
        const message = await getClient().messages.create(
          { ...params(request), stream: false },
          defined('signal', request.abortSignal),
        );
        let text = '';
        const toolCalls: ToolCallRequest[] = [];
        for (const block of message.content) {
          if (block.type === 'text') text += block.text;
          else if (block.type === 'tool_use')
            toolCalls.push({
              callId: block.id,
              toolName: block.name,
              argumentsText: JSON.stringify(block.input),
            });
        }
        return {
          text,
          toolCalls,
          finishReason: mapAnthropicStopReason(message.stop_reason),
          usage: toUsage(message.usage),
          ...defined('responseId', message.id || undefined),
          ...defined('responseModel', message.model || undefined),
        };
      } catch (error) {
        throw toModelCallError(error, 'Anthropic');
      }
    },
    stream: request => streamMessages(getClient, params(request), request.abortSignal),
  };
}

async function* streamMessages(
  client: () => Anthropic,
  params: MessageParams,
  abortSignal: AbortSignal | undefined,
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const callIdByBlock = new Map<number, string>();
  let startUsage: AnthropicUsage = {};
  let outputTokens = 0;
  let stopReason: string | null | undefined;
  let stopped = false;
  const answered: { id?: string; model?: string } = {};
  try {
    const response = await client()
      .messages.create({ ...params, stream: true }, defined('signal', abortSignal))
      .asResponse();
    for await (const { data } of readSseJson(response, 'Anthropic')) {
      const event = data as Anthropic.Messages.RawMessageStreamEvent;
      switch (event.type) {
        case 'message_start':
          startUsage = event.message.usage;
          answered.id = event.message.id || undefined;
          answered.model = event.message.model || undefined;
          outputTokens = event.message.usage.output_tokens;
          break;
        case 'content_block_start':
          if (event.content_block.type === 'tool_use') {
            callIdByBlock.set(event.index, event.content_block.id);
            yield {
              type: 'tool-call-start',
              callId: event.content_block.id,
              toolName: event.content_block.name,
            };
          }
          break;
        case 'content_block_delta':
          if (event.delta.type === 'text_delta' && event.delta.text !== '') {
            yield { type: 'text-delta', text: event.delta.text };
          } else if (event.delta.type === 'input_json_delta' && event.delta.partial_json !== '') {
            const callId = callIdByBlock.get(event.index);
            if (callId !== undefined)
              yield { type: 'tool-call-delta', callId, argumentsDelta: event.delta.partial_json };
          }
          break;
        case 'content_block_stop': {
          const callId = callIdByBlock.get(event.index);
          if (callId !== undefined) yield { type: 'tool-call-end', callId };
          break;
        }
        case 'message_delta':
          stopReason = event.delta.stop_reason;
          outputTokens = event.usage.output_tokens;
          // The final counts: a message_delta's usage is cumulative, and its input and cache
          // tokens (when it gives them) replace message_start's early estimate.
          startUsage = finalUsage(startUsage, event.usage);
          break;
        case 'message_stop':
          stopped = true;
          break;
        default:
          break;
      }
    }
  } catch (error) {
    throw toModelCallError(error, 'Anthropic');
  }
  if (!stopped) return; // cut mid-way: the assembler reports an interrupted stream
  yield {
    type: 'finish',
    finishReason: mapAnthropicStopReason(stopReason),
    usage: toUsage(startUsage, outputTokens),
    ...defined('responseId', answered.id),
    ...defined('responseModel', answered.model),
  };
}
