import type { LanguageModel } from '../../../kernel/model/language-model.js';
import { openaiChatModel } from './openai-chat-model.js';
import type { OpenAIModelOptions } from './openai-options.js';
import { openaiResponsesModel } from './openai-responses-model.js';

/** `openai(model)` for Chat Completions, `openai.responses(model)` for the Responses API. */
export interface OpenAIProvider {
  (modelId: string, options?: OpenAIModelOptions): LanguageModel;
  /** A model served by the Responses API. */
  responses(modelId: string, options?: OpenAIModelOptions): LanguageModel;
}

/**
 * OpenAI models over the official `openai` client.
 *
 * @example
 * ```ts
 * const model = openai('gpt-4o-mini');                 // OPENAI_API_KEY, read at the first call
 * const viaResponses = openai.responses('gpt-4o-mini');
 * ```
 */
export const openai: OpenAIProvider = Object.assign(
  (modelId: string, options?: OpenAIModelOptions) => openaiChatModel(modelId, options),
  {
    responses: (modelId: string, options?: OpenAIModelOptions) =>
      openaiResponsesModel(modelId, options),
  },
);
