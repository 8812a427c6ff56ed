import type { TraceEvent } from '@agent-trace/core';

/**
 * Events with times, durations and ids taken out (span ids remapped by first appearance), so two
 * runs of the same behaviour compare equal.
 */
export function normalizeEvents(events: readonly TraceEvent[]): Record<string, unknown>[] {
  const spans = new Map<string, string>();
  const span = (id: string | null): string | null => {
    if (id === null) return null;
    if (!spans.has(id)) spans.set(id, `span-${spans.size + 1}`);
    return spans.get(id)!;
  };
  return events.map(event => {
    const {
      time: _time,
      run: _run,
      session: _session,
      trace_id: _traceId,
      span_id,
      parent_span_id,
      ...rest
    } = event as TraceEvent & { duration_ms?: number };
    const copy: Record<string, unknown> = {
      ...rest,
      span_id: span(span_id),
      parent_span_id: span(parent_span_id),
    };
    delete copy.duration_ms;
    return copy;
  });
}
