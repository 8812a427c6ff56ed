/**
 * agent-trace for agents built on the OpenAI Agents SDK: `agentTraceProcessor` records their runs
 * as agent-trace traces through the SDK's tracing processor; `openaiAgentsModel` makes an
 * agent-trace model (a `fakeLLM` script, a cassette-recorded model, a provider's) the SDK's
 * `Model`.
 */
export { agentTraceProcessor } from './record/trace-processor.js';
export { withAgentTrace } from './record/with-agent-trace.js';
export type { AgentTraceProcessor, AgentTraceProcessorOptions } from './record/trace-processor.js';
export { openaiAgentsModel } from './openai-agents-model.js';
export type { OpenaiAgentsModelOptions } from './openai-agents-model.js';
export { toModelRequest } from './to-model-request.js';
export { openaiAgentsAgent, rerunOpenaiAgentsTrace } from './rerun/rerun-openai-agents.js';
export type { OpenaiAgentsRerun, RerunOpenaiAgentsOptions } from './rerun/rerun-openai-agents.js';
