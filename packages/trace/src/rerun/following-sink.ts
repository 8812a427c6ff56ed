import type { TraceEvent, TraceSink } from '@agent-trace/core';

/**
 * A sink that writes nothing and follows a rerun's events as the run makes them (a workflow's
 * steps are written later, in the workflow's order): `made` sees each one, start, end or point.
 */
export function followingSink(made: (event: TraceEvent) => void): TraceSink {
  return {
    write: () => undefined,
    flush: () => Promise.resolve(),
    writesEvents: false,
    live: {
      runStarting: () => ({ follow: true }),
      spanStarted: made,
      spanEnded: made,
      pointEvent: made,
      within: (_span, work) => work(),
    },
  };
}
