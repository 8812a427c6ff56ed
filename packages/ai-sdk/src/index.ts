/**
 * agent-trace for agents built on the Vercel AI SDK. Today: `aiSdkModel`, an agent-trace model
 * (a `fakeLLM` script, a cassette-recorded model, a provider's) as the AI SDK's language model.
 */
export { aiSdkModel } from './ai-sdk-model.js';
export type { AiSdkModelOptions } from './ai-sdk-model.js';
export { toModelRequest } from './to-model-request.js';
