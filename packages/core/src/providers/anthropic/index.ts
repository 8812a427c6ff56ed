export { anthropic } from './anthropic-provider.js';
export type { AnthropicModelOptions } from './anthropic-options.js';
