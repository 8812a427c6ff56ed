export { alignTraces, compareTraces, formatDivergence } from './compare-traces.js';
export type { AlignedStep, Divergence, StepLine } from './compare-traces.js';
export type { RequestChange } from './explain-request.js';
export { forkTrace } from './fork-trace.js';
export type { ForkReport, ForkTraceOptions } from './fork-trace.js';
export { rerunTrace } from './rerun-trace.js';
export type { RerunReport, RerunTraceOptions } from './rerun-trace.js';
export { isPlanTarget } from './rerun-target.js';
export type { PlanTarget, RerunTarget, TargetResult } from './rerun-target.js';
