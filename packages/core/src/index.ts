export { agent } from './kernel/agent/agent.js';
export type {
  Agent,
  AgentFeatureOptions,
  AgentLimits,
  AgentOptions,
  AnyAgent,
  MemoryOptions,
  RetryOptions,
  ToolCalling,
} from './kernel/agent/agent.js';
// The standard features' per-agent options (`circuitBreaker`, `guardrails`), which they add to
// `AgentOptions` themselves.
export type { CircuitBreakerSettings } from './features/resilience/breaker-options.js';
export { agentAsTool } from './kernel/agent/as-tool.js';
export type { AsToolOptions, DelegateResult } from './kernel/agent/as-tool.js';
export { handoff, isHandoff } from './kernel/agent/handoff.js';
export type { Handoff, HandoffOptions } from './kernel/agent/handoff.js';

export { tool } from './kernel/tool/tool.js';
export type { AnyTool, Tool, ToolContext, ToolOptions } from './kernel/tool/tool.js';

export { resume, run, stream } from './runner/run.js';
export type { RunStream } from './runner/run.js';
export type { ResumeOptions, RunOptions } from './runner/run-options.js';
export type {
  ResumeOnceOptions,
  RunOverrides,
  PacedStep,
  ToolCallContext,
} from './kernel/run/frame/kernel-options.js';
export type { RunOutput, RunResult } from './kernel/run/frame/run-result.js';
export type {
  HandoffRecord,
  ReActRecord,
  StepResult,
  ToolCallRecord,
} from './kernel/protocol/records.js';
export type { Chunk, ChunkData, ChunkType } from './kernel/protocol/chunk.js';
export { stopReasons } from './kernel/protocol/stop-reason.js';
export type { StopLimit, StopReason } from './kernel/protocol/stop-reason.js';

export { isLanguageModel } from './kernel/model/language-model.js';
export type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ToolDefinition,
} from './kernel/model/language-model.js';
export { model } from './adapters/providers/model-string.js';
export type { ModelStringOptions } from './adapters/providers/model-string.js';
export { finishReasons } from './kernel/protocol/finish-reason.js';
export type { FinishReason } from './kernel/protocol/finish-reason.js';
export type {
  AssistantMessage,
  Message,
  ToolCallRequest,
  ToolResultMessage,
  UserMessage,
} from './kernel/protocol/message.js';
export type { ReasoningPart } from './kernel/protocol/reasoning.js';
export type { Usage } from './kernel/protocol/usage.js';

export { AgentTraceError } from './kernel/errors/agent-trace-error.js';
export type { AgentTraceErrorOptions } from './kernel/errors/agent-trace-error.js';
export { ConfigurationError } from './kernel/errors/configuration-error.js';
export { ModelCallError, modelCallErrorKinds } from './kernel/errors/model-call-error.js';
export type {
  ModelCallErrorKind,
  ModelCallErrorOptions,
} from './kernel/errors/model-call-error.js';
export { RunAbortedError } from './kernel/errors/abort-error.js';
export { RunTimeoutError } from './kernel/errors/run-timeout-error.js';
export { ToolCallError, toolCallErrorKinds } from './kernel/errors/tool-call-error.js';
export { toolError, ToolRefusal } from './kernel/errors/tool-refusal.js';
export type { ToolCallErrorKind } from './kernel/errors/tool-call-error.js';

export {
  SUPPORTED_TRACE_SCHEMA_VERSIONS,
  TRACE_SCHEMA_VERSION,
  TraceError,
  TraceEvent,
  traceEventNames,
  TraceMessage,
} from './kernel/protocol/trace-event.js';
export type { TraceEventName, TraceEventOf } from './kernel/protocol/trace-event.js';
export { isTraceEvent } from './kernel/trace/is-trace-event.js';
export { isTraceSink, traceSinkVersion } from './kernel/trace/trace-sink.js';
export type {
  LiveRun,
  LiveSpanAt,
  LiveSpans,
  SinkHealth,
  TraceSink,
} from './kernel/trace/trace-sink.js';
export type { Evaluation } from './kernel/protocol/evaluation.js';
export { FeedbackEvent, feedbackSources } from './kernel/protocol/feedback-event.js';
export { EvaluationEvent } from './kernel/protocol/evaluation-event.js';
export { isJudgment, judgmentKinds } from './kernel/protocol/span-kinds.js';

export { steppingClock, systemClock, virtualClock } from './kernel/util/clock.js';
export type { Clock, TimedWork } from './kernel/util/clock.js';
export { randomIds, sequentialIds } from './kernel/util/ids.js';
export type { IdGenerator } from './kernel/util/ids.js';
export { defaults } from './kernel/util/defaults.js';
