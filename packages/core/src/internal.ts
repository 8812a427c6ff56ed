/**
 * Helpers agent-trace's own packages share (`@agent-trace/core/internal`). They are not part of
 * the public API and may change in any release: applications use `@agent-trace/core`.
 */
export { backoffDelayMs } from './kernel/util/backoff.js';
export type { BackoffOptions } from './kernel/util/backoff.js';
export { CircuitBreaker, CircuitBreakers } from './features/resilience/circuit-breaker.js';
export type { CircuitBreakerOptions, CircuitState } from './features/resilience/circuit-breaker.js';
export { partsOfResponse } from './kernel/model/response-parts.js';
export { placeholderFor } from './features/redaction/redactor.js';
export { ToolRegistry } from './kernel/tool/tool-registry.js';
export { compileSchemaCheck } from './kernel/trace/compile-schema-check.js';
export type { SchemaCheck } from './kernel/trace/compile-schema-check.js';
export { canonicalJson } from './kernel/util/canonical-json.js';
export { defined } from './kernel/util/defined.js';
export { sleepOn } from './kernel/util/clock.js';
export { importPeer } from './kernel/util/import-peer.js';
export { ordinal } from './kernel/util/ordinal.js';
export { StreamAssembler } from './kernel/model/assemble-stream.js';
export { knownTraceFields, TraceEventEnvelope } from './kernel/protocol/trace-event.js';
export { MissingPeerError } from './kernel/util/import-peer.js';
export type { ResolvedAgentLimits, ResolvedResilience } from './kernel/agent/agent.js';
export type { ResolvedHandoff } from './kernel/agent/handoff.js';
export type { KernelOptions } from './kernel/run/run-options.js';
export { RunTracer } from './kernel/trace/run-tracer.js';
export type { OpenSpan, TraceEventFields } from './kernel/trace/run-tracer.js';
export { toTraceMessage } from './kernel/protocol/trace-message.js';
export { hashString } from './kernel/util/hash.js';
export { countedUsage } from './kernel/protocol/usage.js';
export { appendToolCall } from './kernel/protocol/message.js';
export {
  bridgedRunTally,
  RecordedAgent,
  sealRun,
  traceError,
} from './features/bridge/recorded-agent.js';
export { BridgedRuns } from './features/bridge/bridged-runs.js';
export type { BridgeRecordingOptions } from './features/bridge/bridged-runs.js';
export type {
  BridgedAgentStart,
  BridgedCallEnd,
  BridgedCallStart,
  BridgedEnding,
  BridgedRunTally,
} from './features/bridge/recorded-agent.js';
export { jsonOrText } from './kernel/util/json-or-text.js';
