export { jsonlSink } from './jsonl/jsonl-sink.js';
export { fileResumeLedger } from './jsonl/file-resume-ledger.js';
export type { JsonlSink, JsonlSinkOptions } from './jsonl/jsonl-sink.js';
export { groupRuns } from './jsonl/group-runs.js';
export type { TraceRun } from './jsonl/group-runs.js';
export { describeNewerContent, NewerContentLog, NewerEvent } from './jsonl/newer-content.js';
export type { NewerContent } from './jsonl/newer-content.js';
export { parseTraceLine, readTraceLine } from './jsonl/parse-trace-line.js';
export { readTrace } from './jsonl/read-trace.js';
export type { ReadTraceOptions } from './jsonl/read-trace.js';
export {
  describeReplacedBytes,
  describeTornTail,
  readTraceLines,
} from './jsonl/read-trace-lines.js';
export type { ReplacedBytes, TornTail, TraceLine } from './jsonl/read-trace-lines.js';
export { tailTrace } from './jsonl/tail-trace.js';
export type { TailBatch, TailTraceOptions } from './jsonl/tail-trace.js';
export { repairTornTail } from './jsonl/repair-torn-tail.js';
export { TraceFileError } from './jsonl/trace-file-error.js';
export { TraceParseError } from './jsonl/trace-parse-error.js';
export { FeedbackError, readFeedback, recordFeedback } from './feedback/index.js';
export { judgmentEvaluation } from './otlp/judgment-evaluation.js';
export type { FeedbackInput, RecordFeedbackOptions } from './feedback/index.js';
export { memorySink } from './memory-sink.js';
export type { MemorySink } from './memory-sink.js';
export { TraceValidator, validateTrace, validateTraceFile } from './validate/validate-trace.js';
export type {
  TraceProblem,
  TraceProblemKind,
  TraceRunSummary,
  TraceValidationReport,
  TraceWarning,
} from './validate/validate-trace.js';
export {
  agentTurnOf,
  alignTraces,
  compareTraces,
  ConversationCarry,
  conversationFromTrace,
  forkTrace,
  formatDivergence,
  isBridgedAgent,
  isPlanTarget,
  recordedConversation,
  recordedConversations,
  recordedEvents,
  recordedModel,
  recordedRuns,
  recordedServers,
  Recording,
  rerunBridged,
  rerunConversation,
  rerunReport,
  rerunTrace,
  simulatedUserRuns,
} from './rerun/index.js';
export type {
  AlignedStep,
  BridgedAgent,
  ConversationFromTraceOptions,
  ConversationRerunOptions,
  ConversationRerunReport,
  RecordedConversation,
  RecordedTurn,
  TurnOf,
  TurnRerun,
  ForkReport,
  ForkTraceOptions,
  StepLine,
  Divergence,
  RequestChange,
  PlanTarget,
  RecordedCall,
  RerunReport,
  RerunTarget,
  RerunTraceOptions,
  TargetResult,
} from './rerun/index.js';
