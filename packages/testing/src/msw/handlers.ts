export { anthropicHandlers } from './anthropic-handlers.js';
export { openaiHandlers } from './openai-handlers.js';
export { encodeSse, sseResponse, streamedAnswer } from './sse.js';
