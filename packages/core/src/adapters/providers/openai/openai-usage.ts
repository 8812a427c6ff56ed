import type { Usage } from '../../../kernel/protocol/usage.js';

/**
 * OpenAI's usage in agent-trace's terms. Input tokens already include the cached ones
 * (`cached_tokens`), which are also reported apart: they cost less.
 */
export function openaiUsage(
  usage:
    | {
        readonly prompt_tokens?: number;
        readonly completion_tokens?: number;
        readonly input_tokens?: number;
        readonly output_tokens?: number;
        readonly prompt_tokens_details?: { readonly cached_tokens?: number | null } | null;
        readonly input_tokens_details?: { readonly cached_tokens?: number | null } | null;
        readonly completion_tokens_details?: { readonly reasoning_tokens?: number | null } | null;
        readonly output_tokens_details?: { readonly reasoning_tokens?: number | null } | null;
      }
    | null
    | undefined,
): Usage {
  const cached =
    usage?.prompt_tokens_details?.cached_tokens ?? usage?.input_tokens_details?.cached_tokens ?? 0;
  const reasoning =
    usage?.completion_tokens_details?.reasoning_tokens ??
    usage?.output_tokens_details?.reasoning_tokens ??
    0;
  return {
    promptTokens: usage?.prompt_tokens ?? usage?.input_tokens ?? 0,
    completionTokens: usage?.completion_tokens ?? usage?.output_tokens ?? 0,
    ...(cached > 0 ? { cacheReadTokens: cached } : {}),
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}),
  };
}
