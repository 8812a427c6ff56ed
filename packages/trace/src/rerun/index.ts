export { alignTraces, compareTraces, formatDivergence } from './compare-traces.js';
export type { AlignedStep, Divergence, StepLine } from './compare-traces.js';
export type { RequestChange } from './explain-request.js';
export { forkTrace } from './fork-trace.js';
export type { ForkReport, ForkTraceOptions } from './fork-trace.js';
export { rerunReport, rerunTrace } from './rerun-trace.js';
export type { RerunReport, RerunTraceOptions } from './rerun-trace.js';
export { isPlanTarget } from './rerun-target.js';
export type { PlanTarget, RerunTarget, TargetResult } from './rerun-target.js';
export { recordedEvents, recordedRuns, Recording, simulatedUserRuns } from './recording.js';
export type { RecordedCall } from './recording.js';
export { recordedModel } from './recorded-model.js';
export { isBridgedAgent, rerunBridged } from './bridged-agent.js';
export type { BridgedAgent } from './bridged-agent.js';
export { recordedServers } from './recorded-servers.js';
export {
  conversationFromTrace,
  recordedConversation,
  recordedConversations,
  rerunConversation,
} from './rerun-conversation.js';
export type {
  ConversationFromTraceOptions,
  ConversationRerunOptions,
  ConversationRerunReport,
  RecordedConversation,
  RecordedTurn,
  TurnRerun,
} from './rerun-conversation.js';
export { agentTurnOf, ConversationCarry } from './conversation-carry.js';
export type { TurnOf } from './conversation-carry.js';
