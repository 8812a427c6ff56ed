export { compareTraces, formatDivergence } from './compare-traces.js';
export type { Divergence } from './compare-traces.js';
export type { RequestChange } from './explain-request.js';
export { replayTrace } from './replay-trace.js';
export type { ReplayReport, ReplayTraceOptions } from './replay-trace.js';
