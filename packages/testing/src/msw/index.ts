export type { ProviderHandlerOptions } from './handler-options.js';
export { anthropicHandlers } from './anthropic-handlers.js';
export { openaiHandlers } from './openai-handlers.js';
export { encodeSse, sseResponse, streamedAnswer } from './sse.js';
export type { SplitPoints, SseFrame } from './sse.js';
