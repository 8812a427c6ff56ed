import { AgentTraceError, type TraceEvent } from '@agent-trace/core';

/** Where a trace broke the rules normalisation checks before it replaces a value. */
export class TraceNormalizationError extends AgentTraceError {
  constructor(message: string) {
    super({ message });
    this.name = 'TraceNormalizationError';
  }
}

const idFields = ['run', 'session', 'trace_id', 'span_id', 'parent_span_id'] as const;
const idPrefix: Record<(typeof idFields)[number], string> = {
  run: 'run',
  session: 'session',
  trace_id: 'trace',
  span_id: 'span',
  parent_span_id: 'span',
};

/**
 * A trace with what changes between two runs of the same behaviour taken out, for golden files
 * and diffs: ids are renamed by order of first appearance (`run-1`, `span-3`, …; the random id of
 * the state a resumed run goes on from, `state-1`), times and durations are checked (valid, not
 * negative) and then replaced. Everything else is kept, in
 * order: the loop already writes parallel results in the order they were asked for.
 */
export function normalizeTrace(events: readonly TraceEvent[]): Record<string, unknown>[] {
  const names = new Map<string, string>();
  const counters = new Map<string, number>();
  const rename = (prefix: string, id: string): string => {
    const key = `${prefix}:${id}`;
    let name = names.get(key);
    if (name === undefined) {
      const next = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, next);
      name = `${prefix}-${next}`;
      names.set(key, name);
    }
    return name;
  };
  return events.map(event => {
    const copy: Record<string, unknown> = { ...event };
    if (Number.isNaN(Date.parse(event.time))) {
      throw new TraceNormalizationError(`event seq ${event.seq} (${event.event}) has an invalid time '${event.time}'.`);
    }
    copy.time = '<time>';
    const duration = (event as { duration_ms?: unknown }).duration_ms;
    if (duration !== undefined) {
      if (typeof duration !== 'number' || duration < 0) {
        throw new TraceNormalizationError(`event seq ${event.seq} (${event.event}) has a negative or missing duration_ms.`);
      }
      copy.duration_ms = '<duration>';
    }
    // When a streamed call's first chunk came is a time too.
    if ((event as { first_chunk_ms?: unknown }).first_chunk_ms !== undefined)
      copy.first_chunk_ms = '<duration>';
    for (const field of idFields) {
      const value = event[field];
      if (typeof value === 'string') copy[field] = rename(idPrefix[field], value);
    }
    const resumed = (event as { resumed?: { state_id?: string } }).resumed;
    if (resumed?.state_id !== undefined)
      copy.resumed = { ...resumed, state_id: rename('state', resumed.state_id) };
    return copy;
  });
}
