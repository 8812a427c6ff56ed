import type { TraceEvent } from '@agent-trace/core';

/**
 * Where the recorded run made `event` among its events: its `made`, written when parts of the run
 * went on side by side and were written part by part, else its seq (written as made).
 */
export function madeOf(event: TraceEvent): number {
  return event.made ?? event.seq;
}
