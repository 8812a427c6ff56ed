/**
 * Why the model stopped producing output, normalised across providers:
 * - `stop`: it ended its turn (OpenAI `stop`, Anthropic `end_turn` / `stop_sequence`, Gemini `STOP`);
 * - `tool_calls`: it wants tools to run (OpenAI `tool_calls`, Anthropic `tool_use`);
 * - `length`: it ran out of output tokens (`length`, `max_tokens`);
 * - `content_filter`: the provider withheld output;
 * - `other`: anything else.
 *
 * The loop never relies on `tool_calls` alone: a response that carries tool calls runs them,
 * whatever its finish reason (some providers say `stop` for a tool call).
 */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/** Every finish reason, for validation and exhaustive tests. */
export const finishReasons: readonly FinishReason[] = [
  'stop',
  'tool_calls',
  'length',
  'content_filter',
  'other',
];
