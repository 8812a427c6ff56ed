export { fakeLLM } from './fake-llm.js';
export type { FakeLLM, FakeLLMCall, FakeLLMOptions, UnexpectedCallPolicy } from './fake-llm.js';
export { isFakeErrorStep, isFakeThrowStep } from './fake-llm-step.js';
export type {
  FakeAnswerStep,
  FakeErrorStep,
  FakeLLMStep,
  FakeResponder,
  FakeScriptedStep,
  FakeThrowStep,
  FakeToolCall as FakeLLMToolCall,
} from './fake-llm-step.js';
export { approveAll, decideBy, rejectTool, runWithApprover } from './approvers.js';
export type { Approver, RunWithApproverOptions, Verdict } from './approvers.js';
export { cassette, cassetteMode, withCassette } from './cassette.js';
export type { CassetteOptions } from './cassette.js';
export { fakeTool } from './fake-tool.js';
export type { FakeTool, FakeToolCall, FakeToolOptions, FakeToolStep } from './fake-tool.js';
export { compareGoldenTrace, GoldenTraceMismatchError } from './golden/golden-trace.js';
export type { GoldenTraceOptions, GoldenTraceOutcome } from './golden/golden-trace.js';
export { lineDiff } from './golden/line-diff.js';
export { normalizeTrace, TraceNormalizationError } from './golden/normalize-trace.js';
// Rerunning a recorded trace lives in @agent-trace/trace; tests reach it from here too.
export { compareTraces, forkTrace, formatDivergence, rerunTrace } from '@agent-trace/trace';
export type {
  Divergence,
  ForkReport,
  ForkTraceOptions,
  RequestChange,
  RerunReport,
  RerunTraceOptions,
} from '@agent-trace/trace';
