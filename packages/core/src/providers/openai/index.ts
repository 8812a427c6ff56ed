export { openai } from './openai-provider.js';
export type { OpenAIProvider } from './openai-provider.js';
export type { OpenAIModelOptions } from './openai-options.js';
