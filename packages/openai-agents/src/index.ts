/**
 * agent-trace for agents built on the OpenAI Agents SDK. Today: `openaiAgentsModel`, an
 * agent-trace model (a `fakeLLM` script, a cassette-recorded model, a provider's) as the SDK's
 * `Model`.
 */
export { openaiAgentsModel } from './openai-agents-model.js';
export type { OpenaiAgentsModelOptions } from './openai-agents-model.js';
export { toModelRequest } from './to-model-request.js';
