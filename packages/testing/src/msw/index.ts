import { importPeer } from '@agent-trace/core/util';

// The handlers import the optional peer `msw`: check it first, for a clear error.
await importPeer(() => import('msw'), {
  peer: 'msw',
  needer: '@agent-trace/testing/msw',
  range: '^2.9.0',
});
const handlers = await import('./handlers.js');

/** msw handlers serving a FakeLLM script in the OpenAI wire formats: see `openai-handlers`. */
export const openaiHandlers: typeof handlers.openaiHandlers = handlers.openaiHandlers;
/** msw handlers serving a FakeLLM script in the Anthropic wire format: see `anthropic-handlers`. */
export const anthropicHandlers: typeof handlers.anthropicHandlers = handlers.anthropicHandlers;
/** Encodes server-sent events as the providers frame them. */
export const encodeSse: typeof handlers.encodeSse = handlers.encodeSse;
/** A streamed response cut into network chunks at the given bytes. */
export const sseResponse: typeof handlers.sseResponse = handlers.sseResponse;
/** The streamed answer of a script step, ending as its `cutAs` says. */
export const streamedAnswer: typeof handlers.streamedAnswer = handlers.streamedAnswer;
export type { ProviderHandlerOptions } from './handler-options.js';
export type { SplitPoints, SseFrame } from './sse.js';
