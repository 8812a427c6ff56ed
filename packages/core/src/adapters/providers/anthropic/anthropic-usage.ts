import type { Usage } from '../../../kernel/protocol/usage.js';

/** Token counts as the Messages API gives them. */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Input tokens counted the way agent-trace does: cached ones included, and also reported apart. */
export function toUsage(usage: AnthropicUsage, outputTokens = usage.output_tokens ?? 0): Usage {
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
export function finalUsage(start: AnthropicUsage, delta: AnthropicUsage): AnthropicUsage {
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
