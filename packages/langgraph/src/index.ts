/**
 * agent-trace for agents built on LangGraph.js and LangChain: `agentTraceCallbacks` records their
 * runs as agent-trace traces through a LangChain callback handler; `langchainModel` makes an
 * agent-trace model (a `fakeLLM` script, a cassette-recorded model, a provider's) a LangChain chat
 * model that makes tool calls; `rerunLanggraphTrace` reruns a graph against its recording.
 */
import { importPeer } from '@agent-trace/core/util';
import type { AgentTraceChatModel as ChatModelType } from './langchain-model.js';
import type { AgentTraceCallbackHandler as CallbackHandlerType } from './record/trace-callbacks.js';

// The bridge's classes extend LangChain's: check the peer first, for an error that says what to
// install rather than Node's bare "Cannot find package".
await importPeer(() => import('@langchain/core/callbacks/base'), {
  peer: '@langchain/core',
  needer: '@agent-trace/langgraph',
  range: '>=1.0.0 <2.0.0',
  runtime: true,
});
const callbacks = await import('./record/trace-callbacks.js');
const models = await import('./langchain-model.js');
const reruns = await import('./rerun/rerun-langgraph.js');

/** Records a LangGraph (or LangChain) run as an agent-trace run: pass it as the invocation's `callbacks`. */
export const agentTraceCallbacks: typeof callbacks.agentTraceCallbacks =
  callbacks.agentTraceCallbacks;
/** The callback handler `agentTraceCallbacks` makes. */
export const AgentTraceCallbackHandler: typeof callbacks.AgentTraceCallbackHandler =
  callbacks.AgentTraceCallbackHandler;
/** The callback handler `agentTraceCallbacks` makes. */
export type AgentTraceCallbackHandler = CallbackHandlerType;
export type { AgentTraceCallbacksOptions } from './record/trace-callbacks.js';
/** An agent-trace model (a `fakeLLM` script, a provider's) as a LangChain chat model. */
export const langchainModel: typeof models.langchainModel = models.langchainModel;
/** The chat model `langchainModel` makes. */
export const AgentTraceChatModel: typeof models.AgentTraceChatModel = models.AgentTraceChatModel;
/** The chat model `langchainModel` makes. */
export type AgentTraceChatModel = ChatModelType;
export type { LangchainModelOptions } from './langchain-model.js';
/** A graph as a module exports it for `agent-trace rerun --agent`. */
export const langgraphAgent: typeof reruns.langgraphAgent = reruns.langgraphAgent;
/** Reruns a graph, as the code defines it today, against a recorded run. */
export const rerunLanggraphTrace: typeof reruns.rerunLanggraphTrace = reruns.rerunLanggraphTrace;
export type { LanggraphRerun, RerunLanggraphOptions } from './rerun/rerun-langgraph.js';
