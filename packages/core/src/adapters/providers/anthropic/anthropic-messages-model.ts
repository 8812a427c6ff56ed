import Anthropic from '@anthropic-ai/sdk';
import type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
} from '../../../kernel/model/language-model.js';
import { IncrementalConverter } from '../incremental-conversion.js';
import { loadApiKey } from '../load-api-key.js';
import { modelSettings } from '../model-settings.js';
import { toModelCallError } from '../provider-error.js';
import { appendAnthropicMessage, toAnthropicTools } from './convert-to-anthropic.js';
import type { AnthropicModelOptions, MessageParams } from './anthropic-options.js';
import { toUsage } from './anthropic-usage.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { defined } from '../../../kernel/util/defined.js';
import { serverOf } from '../server-of.js';
import { readAnthropicContent, streamAnthropicMessages } from './anthropic-stream.js';

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
    ...(options.thinking === undefined
      ? {}
      : { thinking: { type: 'enabled', budget_tokens: options.thinking.budgetTokens } }),
  });

  return {
    specificationVersion: 'v1',
    provider: 'anthropic.messages',
    modelId,
    settings: modelSettings(options, { thinkingBudgetTokens: options.thinking?.budgetTokens }),
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
        return {
          ...readAnthropicContent(message.content),
          finishReason: mapAnthropicStopReason(message.stop_reason),
          usage: toUsage(message.usage),
          ...defined('responseId', message.id || undefined),
          ...defined('responseModel', message.model || undefined),
        };
      } catch (error) {
        throw toModelCallError(error, 'Anthropic');
      }
    },
    stream: request => streamAnthropicMessages(getClient, params(request), request.abortSignal),
  };
}
