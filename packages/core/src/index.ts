export { agent } from './kernel/agent/agent.js';
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
} from './kernel/agent/agent.js';

export { AgentTraceError } from './kernel/errors/agent-trace-error.js';
export type { AgentTraceErrorOptions } from './kernel/errors/agent-trace-error.js';
export { ConfigurationError } from './kernel/errors/configuration-error.js';
export { ModelCallError } from './kernel/errors/model-call-error.js';
export type {
  ModelCallErrorKind,
  ModelCallErrorOptions,
} from './kernel/errors/model-call-error.js';
export { RunAbortedError } from './kernel/errors/abort-error.js';
export { RunTimeoutError } from './kernel/errors/run-timeout-error.js';
export { ToolCallError } from './kernel/errors/tool-call-error.js';
export type { ToolCallErrorKind } from './kernel/errors/tool-call-error.js';

export { blockedPatternsGuardrail } from './features/guardrail/blocked-patterns-guardrail.js';
export { estimateTokens } from './kernel/agent/guardrail.js';
export type {
  AgentGuardrails,
  Guardrail,
  GuardrailAction,
  GuardrailCheck,
  GuardrailStage,
  GuardrailVerdict,
} from './kernel/agent/guardrail.js';
export { maxLengthGuardrail } from './features/guardrail/max-length-guardrail.js';
export type { GuardrailFinding } from './kernel/agent/guardrail.js';
export { schemaGuardrail } from './features/guardrail/schema-guardrail.js';
export { tokenGuard } from './features/guardrail/token-guard.js';
export type { TokenGuard } from './features/guardrail/token-guard.js';

export { agentAsTool } from './kernel/agent/as-tool.js';
export type { AsToolOptions, DelegateResult } from './kernel/agent/as-tool.js';
export { handoff, isHandoff } from './kernel/agent/handoff.js';
export type { Handoff, HandoffOptions, ResolvedHandoff } from './kernel/agent/handoff.js';

export { StreamAssembler } from './kernel/model/assemble-stream.js';
export { finishReasons } from './kernel/protocol/finish-reason.js';
export type { FinishReason } from './kernel/protocol/finish-reason.js';
export { isLanguageModel } from './kernel/model/language-model.js';
export { model } from './adapters/providers/model-string.js';
export type { ModelStringOptions } from './adapters/providers/model-string.js';
export type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ToolDefinition,
} from './kernel/model/language-model.js';
export type {
  AssistantMessage,
  Message,
  ToolCallRequest,
  ToolResultMessage,
  UserMessage,
} from './kernel/protocol/message.js';
export { addUsage, zeroUsage } from './kernel/protocol/usage.js';
export type { Usage } from './kernel/protocol/usage.js';

export { modelRouter } from './features/router/model-router.js';
export type { ModelRouterOptions } from './features/router/model-router.js';
export { ruleRouter } from './features/router/rule-router.js';
export type { RouteChoice, RouteRule, RouterOptions, RouterSpec } from './kernel/agent/router.js';

export { Redactor } from './features/redaction/redactor.js';
export type { RedactionOptions } from './features/redaction/redactor.js';

export { resume, run, stream } from './runner/run.js';
export { costOf } from './features/cost/cost-of.js';
export { describeCost, formatUsd } from './kernel/protocol/cost-tally.js';
export { defaultPrices, PriceTable } from './features/cost/prices.js';
export { costBudget } from './features/cost/budget.js';
export { rateLimits } from './features/rate-limit/rate-limits.js';
export { CacheMissError, cachedModel } from './features/cache/model-cache.js';
export type { CachedAnswer, CacheMode, ModelCache } from './features/cache/model-cache.js';
export { memoryCache } from './features/cache/memory-cache.js';
export type { MemoryCacheOptions } from './features/cache/memory-cache.js';
export { requestContent, requestKey } from './features/cache/request-key.js';
export type { RateLimits } from './features/rate-limit/rate-limits.js';
export type { RateLimit } from './features/rate-limit/rate-limiter.js';
export { estimateRequestTokens } from './features/cost/estimate-tokens.js';
export type { TokenCounter } from './features/cost/estimate-tokens.js';
export type { CostBudget } from './features/cost/budget.js';
export type { ModelPrice } from './features/cost/prices.js';
export { RUN_STATE_FORMAT, RUN_STATE_VERSION } from './kernel/run/run-snapshot.js';
export type { RunStateSnapshot } from './kernel/run/run-snapshot.js';
export type {
  ApprovalContext,
  ApprovalDecision,
  ApprovalKind,
  NeedsApproval,
  PendingApproval,
} from './kernel/protocol/approval.js';
export {
  memoryResumeLedger,
  StateAlreadyResumedError,
  type ResumeClaim,
  type ResumeLedger,
} from './kernel/trace/resume-ledger.js';
export type { RunStream } from './runner/run.js';
export type { Chunk, ChunkData, ChunkType } from './kernel/protocol/chunk.js';
export {
  chunkEventStream,
  chunkResponse,
  ChunkStreamError,
  encodeChunkEvent,
  readChunkEventStream,
} from './runner/chunk-sse.js';
export type { ChunkStreamEnd } from './runner/chunk-sse.js';
export type {
  KernelOptions,
  ResumeOnceOptions,
  RunOverrides,
  ToolCallContext,
} from './kernel/run/run-options.js';
export type { ResumeOptions, RunOptions } from './runner/run-options.js';
export type { RunOutput, RunResult } from './kernel/run/run-result.js';
export type {
  HandoffRecord,
  ReActRecord,
  StepResult,
  ToolCallRecord,
} from './kernel/protocol/records.js';
export { malformedAnswerProblems } from './kernel/protocol/malformed-answer.js';
export type { MalformedAnswerProblem } from './kernel/protocol/malformed-answer.js';
export {
  parseReActStep,
  reactInstructions,
  reactLabels,
  reactObservation,
  reactStopSequences,
} from './features/react/react-format.js';
export type { ReActStep } from './features/react/react-format.js';
export { ReActSplitter } from './features/react/react-splitter.js';
export type { TextPiece, TextPieceLabel, TextSplitter } from './kernel/run/text-splitter.js';
export { stopReasons } from './kernel/protocol/stop-reason.js';
export type { StopLimit, StopReason } from './kernel/protocol/stop-reason.js';

export { createTerminationPolicy } from './kernel/termination/create-termination-policy.js';
export { duplicateToolCallPolicy } from './kernel/termination/duplicate-tool-call-policy.js';
export { hasToolCall, stepCountIs } from './kernel/termination/stop-condition.js';
export type { StopCondition, StopConditionState } from './kernel/termination/stop-condition.js';
export { standardPolicy } from './kernel/termination/termination-policy.js';
export type {
  TerminationContext,
  TerminationDecision,
  TerminationPolicy,
} from './kernel/termination/termination-policy.js';
export { tokenBudgetPolicy } from './kernel/termination/token-budget-policy.js';
export { toolCallLimitPolicy } from './kernel/termination/tool-call-limit-policy.js';

export { tool } from './kernel/tool/tool.js';
export type { AnyTool, Tool, ToolContext, ToolOptions } from './kernel/tool/tool.js';

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
} from './kernel/protocol/trace-event.js';
export type { SpanStartName, TraceEventName, TraceEventOf } from './kernel/protocol/trace-event.js';
export { isTraceEvent } from './kernel/trace/is-trace-event.js';
export { isTraceSink } from './kernel/trace/trace-sink.js';
export type {
  LiveRun,
  LiveSpanAt,
  LiveSpans,
  SinkHealth,
  TraceSink,
} from './kernel/trace/trace-sink.js';
export { setDefaultExport } from './kernel/trace/default-export.js';
export type { DefaultExport } from './kernel/trace/default-export.js';

export { steppingClock, systemClock, virtualClock } from './kernel/util/clock.js';
export type { Clock } from './kernel/util/clock.js';
export { defaults } from './kernel/util/defaults.js';
export { MissingPeerError } from './kernel/util/import-peer.js';
export { randomIds, sequentialIds } from './kernel/util/ids.js';
export type { IdGenerator } from './kernel/util/ids.js';
