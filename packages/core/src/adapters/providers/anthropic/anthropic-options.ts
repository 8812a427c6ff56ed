import type Anthropic from '@anthropic-ai/sdk';

/** A Messages API request as the adapter sends it (streamed or not). */
export type MessageParams = Omit<Anthropic.MessageCreateParamsNonStreaming, 'stream'>;

/** Options of `anthropic(model)`. */
export interface AnthropicModelOptions {
  /** @defaultValue the `ANTHROPIC_API_KEY` environment variable, read at the first call */
  apiKey?: string;
  /** @defaultValue https://api.anthropic.com */
  baseURL?: string;
  /** The fetch the client uses (tests, proxies). @defaultValue the global fetch */
  fetch?: typeof fetch;
  /** A ready client; the options above are then ignored. It should have `maxRetries: 0`. */
  client?: Anthropic;
  temperature?: number;
  /** The most tokens an answer may have (the Messages API requires it). @defaultValue 4096 */
  maxOutputTokens?: number;
  /**
   * Extended thinking: the model thinks before it answers, in up to `budgetTokens` tokens (at
   * least 1024, fewer than `maxOutputTokens`). Its thinking is kept on `llm_end`'s `reasoning` and
   * sent back, signed, with the turn's tool results. @defaultValue off
   */
  thinking?: { budgetTokens: number };
}
