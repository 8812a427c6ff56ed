import type OpenAI from 'openai';

/** Options of `openai(model)` and `openai.responses(model)`. */
export interface OpenAIModelOptions {
  /** @defaultValue the `OPENAI_API_KEY` environment variable, read at the first call */
  apiKey?: string;
  /** @defaultValue https://api.openai.com/v1 */
  baseURL?: string;
  organization?: string;
  /** The fetch the client uses (tests, proxies). @defaultValue the global fetch */
  fetch?: typeof fetch;
  /** A ready client; the options above are then ignored. It should have `maxRetries: 0`. */
  client?: OpenAI;
  temperature?: number;
  /** The most tokens an answer may have. @defaultValue the provider's default */
  maxOutputTokens?: number;
  /**
   * A reasoning model's effort, and whether it should say a summary of what it thought
   * (`openai.responses` only). When set, the answer's reasoning comes back encrypted too, kept on
   * `llm_end`'s `reasoning` and sent back with the next request. @defaultValue the model's own
   */
  reasoning?: {
    effort?: 'minimal' | 'low' | 'medium' | 'high';
    summary?: 'auto' | 'concise' | 'detailed';
  };
}
