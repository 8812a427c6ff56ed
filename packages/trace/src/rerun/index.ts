export { compareTraces, formatDivergence } from './compare-traces.js';
export type { Divergence } from './compare-traces.js';
export type { RequestChange } from './explain-request.js';
export { rerunTrace } from './rerun-trace.js';
export type { RerunReport, RerunTraceOptions } from './rerun-trace.js';
