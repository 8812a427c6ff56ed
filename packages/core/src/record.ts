/**
 * The recording API (`@agent-trace/core/record`): how the runs of another framework's agents, or
 * traces from elsewhere, are written as agent-trace runs, with the events, fields, span pairing,
 * counts and seal agent-trace's own loop writes. The AI SDK, Agents SDK and LangGraph bridges and
 * `agent-trace import` are built on it, and so can a bridge of your own
 * (`docs/guide/recording-api.md`). Stable: a change that breaks a bridge written on it is a
 * breaking change of the package.
 *
 * - `BridgedRuns` opens a run's `RunTracer` per run (sinks, session, redaction, prices, clock),
 *   and flushes it when the run is `closed`.
 * - `RecordedAgent` is one agent of the run: model calls (`modelCallStarted` / `modelCallEnded`),
 *   tool calls (`toolStarted` / `toolEnded`), handoffs, and its end, which seals the run when it is
 *   the run's own agent.
 * - `RunTracer.start` / `end` write any other span (a handoff, a step of a graph) paired, and
 *   `sealRun` ends a run whose agents run side by side.
 */
export { BridgedRuns } from './features/recording/bridged-runs.js';
export type { BridgeRecordingOptions } from './features/recording/bridged-runs.js';
export {
  bridgedRunTally,
  RecordedAgent,
  sealRun,
  traceError,
} from './features/recording/recorded-agent.js';
export type {
  BridgedAgentStart,
  BridgedCallEnd,
  BridgedCallStart,
  BridgedEnding,
  BridgedRunTally,
} from './features/recording/recorded-agent.js';
export { RunTracer } from './kernel/trace/run-tracer.js';
export type { OpenSpan, TraceEventFields } from './kernel/trace/run-tracer.js';
export { knownTraceFields, TraceEventEnvelope } from './kernel/protocol/trace-event.js';
export {
  followConversation,
  fromTraceMessage,
  toTraceMessage,
} from './kernel/protocol/trace-message.js';
export { RunHistories, runHistory, standaloneStart } from './kernel/protocol/run-histories.js';
export { countedUsage } from './kernel/protocol/usage.js';
export { appendToolCall } from './kernel/protocol/message.js';
export { partsOfResponse } from './kernel/model/response-parts.js';
export { StreamAssembler } from './kernel/model/assemble-stream.js';
export { jsonOrText } from './kernel/util/json-or-text.js';
export { defaultExportSinks, setDefaultExport } from './kernel/trace/default-export.js';
export type { DefaultExport } from './kernel/trace/default-export.js';
