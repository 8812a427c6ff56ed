/**
 * agent-trace for agents built on the Vercel AI SDK: `agentTraceTelemetry` records their runs as
 * agent-trace traces through the AI SDK's telemetry integrations; `aiSdkModel` makes an agent-trace
 * model (a `fakeLLM` script, a cassette-recorded model, a provider's) the AI SDK's language model.
 */
export { agentTraceTelemetry } from './record/trace-telemetry.js';
export type { AgentTraceTelemetry, AgentTraceTelemetryOptions } from './record/trace-telemetry.js';
export { aiSdkModel } from './ai-sdk-model.js';
export type { AiSdkModelOptions } from './ai-sdk-model.js';
export { toModelRequest } from './to-model-request.js';
export { aiSdkAgent, rerunAiSdkTrace } from './rerun/rerun-ai-sdk.js';
export type { AiSdkRerun, RerunAiSdkOptions } from './rerun/rerun-ai-sdk.js';
