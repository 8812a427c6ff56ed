export { agent } from './agent/agent.js';
export type {
  Agent,
  AgentLimits,
  AgentOptions,
  AnyAgent,
  CircuitBreakerSettings,
  MemoryOptions,
  ResolvedAgentLimits,
  ResolvedResilience,
  RetryOptions,
  ToolCalling,
} from './agent/agent.js';

export { AgentTraceError } from './errors/agent-trace-error.js';
export type { AgentTraceErrorOptions } from './errors/agent-trace-error.js';
export { ConfigurationError } from './errors/configuration-error.js';
export { ModelCallError } from './errors/model-call-error.js';
export type { ModelCallErrorKind, ModelCallErrorOptions } from './errors/model-call-error.js';
export { RunAbortedError } from './errors/abort-error.js';
export { RunTimeoutError } from './errors/run-timeout-error.js';
export { ToolCallError } from './errors/tool-call-error.js';
export type { ToolCallErrorKind } from './errors/tool-call-error.js';

export { blockedPatternsGuardrail } from './guardrail/blocked-patterns-guardrail.js';
export { estimateTokens } from './guardrail/guardrail.js';
export type {
  AgentGuardrails,
  Guardrail,
  GuardrailAction,
  GuardrailCheck,
  GuardrailStage,
  GuardrailVerdict,
} from './guardrail/guardrail.js';
export { maxLengthGuardrail } from './guardrail/max-length-guardrail.js';
export type { GuardrailFinding } from './guardrail/run-guardrails.js';
export { schemaGuardrail } from './guardrail/schema-guardrail.js';
export { tokenGuard } from './guardrail/token-guard.js';
export type { TokenGuard } from './guardrail/token-guard.js';

export { agentAsTool } from './handoff/as-tool.js';
export type { AsToolOptions, DelegateResult } from './handoff/as-tool.js';
export { handoff, isHandoff } from './handoff/handoff.js';
export type { Handoff, HandoffOptions, ResolvedHandoff } from './handoff/handoff.js';

export { StreamAssembler } from './model/assemble-stream.js';
export { finishReasons } from './protocol/finish-reason.js';
export type { FinishReason } from './protocol/finish-reason.js';
export { isLanguageModel } from './model/language-model.js';
export { model } from './providers/model-string.js';
export type { ModelStringOptions } from './providers/model-string.js';
export type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ToolDefinition,
} from './model/language-model.js';
export type {
  AssistantMessage,
  Message,
  ToolCallRequest,
  ToolResultMessage,
  UserMessage,
} from './protocol/message.js';
export { addUsage, zeroUsage } from './protocol/usage.js';
export type { Usage } from './protocol/usage.js';

export { modelRouter } from './router/model-router.js';
export type { ModelRouterOptions } from './router/model-router.js';
export { ruleRouter } from './router/rule-router.js';
export type { RouteChoice, RouteRule, RouterOptions, RouterSpec } from './router/router.js';

export { Redactor } from './redaction/redactor.js';
export type { RedactionOptions } from './redaction/redactor.js';

export { resume, run, stream } from './run/run.js';
export { costOf, describeCost, formatUsd } from './cost/cost.js';
export { defaultPrices, PriceTable } from './cost/prices.js';
export { costBudget } from './cost/budget.js';
export { rateLimits } from './rate-limit/rate-limits.js';
export { CacheMissError, cachedModel } from './cache/model-cache.js';
export type { CachedAnswer, CacheMode, ModelCache } from './cache/model-cache.js';
export { memoryCache } from './cache/memory-cache.js';
export type { MemoryCacheOptions } from './cache/memory-cache.js';
export { requestContent, requestKey } from './cache/request-key.js';
export type { RateLimits } from './rate-limit/rate-limits.js';
export type { RateLimit } from './rate-limit/rate-limiter.js';
export { estimateRequestTokens } from './cost/estimate-tokens.js';
export type { TokenCounter } from './cost/estimate-tokens.js';
export type { CostBudget } from './cost/budget.js';
export type { ModelPrice } from './cost/prices.js';
export { RUN_STATE_FORMAT, RUN_STATE_VERSION } from './run/run-snapshot.js';
export type { RunStateSnapshot } from './run/run-snapshot.js';
export type {
  ApprovalContext,
  ApprovalDecision,
  ApprovalKind,
  NeedsApproval,
  PendingApproval,
} from './approval/approval.js';
export {
  memoryResumeLedger,
  StateAlreadyResumedError,
  type ResumeClaim,
  type ResumeLedger,
} from './approval/resume-ledger.js';
export type { RunStream } from './run/run.js';
export type { Chunk, ChunkData, ChunkType } from './protocol/chunk.js';
export {
  chunkEventStream,
  chunkResponse,
  ChunkStreamError,
  encodeChunkEvent,
  readChunkEventStream,
} from './run/chunk-sse.js';
export type { ChunkStreamEnd } from './run/chunk-sse.js';
export type {
  ResumeOnceOptions,
  ResumeOptions,
  RunOptions,
  RunOverrides,
  ToolCallContext,
} from './run/run-options.js';
export type { RunOutput, RunResult } from './run/run-result.js';
export type { HandoffRecord, ReActRecord, StepResult, ToolCallRecord } from './protocol/records.js';
export { malformedAnswerProblems } from './protocol/malformed-answer.js';
export type { MalformedAnswerProblem } from './protocol/malformed-answer.js';
export {
  parseReActStep,
  reactInstructions,
  reactLabels,
  reactObservation,
  reactStopSequences,
} from './react/react-format.js';
export type { ReActStep } from './react/react-format.js';
export { ReActSplitter } from './react/react-splitter.js';
export type { TextPiece, TextPieceLabel, TextSplitter } from './react/react-splitter.js';
export { stopReasons } from './protocol/stop-reason.js';
export type { StopLimit, StopReason } from './protocol/stop-reason.js';

export { createTerminationPolicy } from './termination/create-termination-policy.js';
export { duplicateToolCallPolicy } from './termination/duplicate-tool-call-policy.js';
export { hasToolCall, stepCountIs } from './termination/stop-condition.js';
export type { StopCondition, StopConditionState } from './termination/stop-condition.js';
export { standardPolicy } from './termination/termination-policy.js';
export type {
  TerminationContext,
  TerminationDecision,
  TerminationPolicy,
} from './termination/termination-policy.js';
export { tokenBudgetPolicy } from './termination/token-budget-policy.js';
export { toolCallLimitPolicy } from './termination/tool-call-limit-policy.js';

export { tool } from './tool/tool.js';
export type { AnyTool, Tool, ToolContext, ToolOptions } from './tool/tool.js';

export {
  isSpanEnd,
  isSpanStart,
  knownTraceFields,
  spanEndFor,
  SUPPORTED_TRACE_SCHEMA_VERSIONS,
  TRACE_SCHEMA_VERSION,
  TraceError,
  TraceEvent,
  TraceEventEnvelope,
  traceEventNames,
  TraceMessage,
} from './protocol/trace-event.js';
export type { SpanStartName, TraceEventName, TraceEventOf } from './protocol/trace-event.js';
export { isTraceEvent } from './trace/is-trace-event.js';
export { isTraceSink } from './trace/trace-sink.js';
export type { LiveRun, LiveSpanAt, LiveSpans, SinkHealth, TraceSink } from './trace/trace-sink.js';
export { setDefaultExport } from './trace/default-export.js';
export type { DefaultExport } from './trace/default-export.js';

export { steppingClock, systemClock, virtualClock } from './util/clock.js';
export type { Clock } from './util/clock.js';
export { defaults } from './util/defaults.js';
export { MissingPeerError } from './util/import-peer.js';
export { randomIds, sequentialIds } from './util/ids.js';
export type { IdGenerator } from './util/ids.js';
