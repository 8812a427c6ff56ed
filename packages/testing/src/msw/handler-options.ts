import type { SplitPoints } from './sse.js';

/** Options of `openaiHandlers` and `anthropicHandlers`. */
export interface ProviderHandlerOptions {
  /**
   * Where the handlers listen; point the client's `baseURL` here.
   * @defaultValue `http://llm.test/v1` (OpenAI), `http://llm.test` (Anthropic)
   */
  baseURL?: string;
  /** Cuts each streamed body into network chunks at these byte offsets. @defaultValue one chunk */
  split?: SplitPoints;
  /** Told every request body, as the provider received it. */
  onRequest?: (body: unknown, path: string) => void;
}
