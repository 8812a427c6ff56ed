import type { LanguageModel } from '../../../kernel/model/language-model.js';
import { anthropicMessagesModel } from './anthropic-messages-model.js';
import type { AnthropicModelOptions } from './anthropic-options.js';

/**
 * An Anthropic model (Messages API) over the official `@anthropic-ai/sdk` client.
 *
 * @example
 * ```ts
 * const model = anthropic('claude-sonnet-4-6');   // ANTHROPIC_API_KEY, read at the first call
 * ```
 */
export function anthropic(modelId: string, options?: AnthropicModelOptions): LanguageModel {
  return anthropicMessagesModel(modelId, options);
}
