/**
 * agent-trace for agents built on LangGraph.js and LangChain: `agentTraceCallbacks` records their
 * runs as agent-trace traces through a LangChain callback handler; `langchainModel` makes an
 * agent-trace model (a `fakeLLM` script, a cassette-recorded model, a provider's) a LangChain chat
 * model that makes tool calls; `rerunLanggraphTrace` reruns a graph against its recording.
 */
export { agentTraceCallbacks, AgentTraceCallbackHandler } from './record/trace-callbacks.js';
export type { AgentTraceCallbacksOptions } from './record/trace-callbacks.js';
export { AgentTraceChatModel, langchainModel } from './langchain-model.js';
export type { LangchainModelOptions } from './langchain-model.js';
export { langgraphAgent, rerunLanggraphTrace } from './rerun/rerun-langgraph.js';
export type { LanggraphRerun, RerunLanggraphOptions } from './rerun/rerun-langgraph.js';
