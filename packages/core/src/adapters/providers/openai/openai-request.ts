import type { ModelRequest } from '../../../kernel/model/language-model.js';
import type { OpenAIModelOptions } from './openai-options.js';

/** The JSON Schema an answer must follow, as both OpenAI APIs take it (not strict). */
export function jsonSchemaFormat(format: NonNullable<ModelRequest['responseFormat']>): {
  name: string;
  schema: Record<string, unknown>;
  strict: false;
} {
  return { name: format.name, schema: { ...format.schema }, strict: false };
}

/**
 * The sampling settings both OpenAI APIs take: the temperature, and the output token limit under
 * the name the API gives it (`max_completion_tokens` for Chat Completions, `max_output_tokens`
 * for Responses). Only what was set.
 */
export function samplingParams<Limit extends string>(
  options: OpenAIModelOptions,
  limit: Limit,
): { temperature?: number } & Partial<Record<Limit, number>> {
  const params: { temperature?: number } & Partial<Record<string, number>> = {};
  if (options.temperature !== undefined) params.temperature = options.temperature;
  if (options.maxOutputTokens !== undefined) params[limit] = options.maxOutputTokens;
  return params;
}
