import { rerunTrace, type RerunReport, type RerunTraceOptions } from '@agent-trace/trace';

/** @deprecated Renamed {@link rerunTrace} (in `@agent-trace/trace`): "replay" is the CLI's rendering of a trace. */
export const replayTrace: typeof rerunTrace = rerunTrace;
/** @deprecated Renamed `RerunReport`. */
export type ReplayReport = RerunReport;
/** @deprecated Renamed `RerunTraceOptions`. */
export type ReplayTraceOptions = RerunTraceOptions;
