import type { TraceEvent } from '@agent-trace/core';

/** A recorded answer's span: where it started and ended in the trace (seq), and when. */
interface AnswerSpan {
  readonly id: string;
  readonly start: number;
  end: number;
  readonly startMs: number;
  endMs: number;
}

/**
 * The spans of the recorded answers (model calls, and tool calls that ran no agent) that ran at
 * the same time as another, or while another part of the run went on (a parallel step deciding
 * on a budget, say): only those need to arrive in the order they came, on the rerun's clock. An
 * answer that ran alone is given at once, so a sequential run's rerun pays nothing for timing.
 */
export function concurrentAnswers(run: readonly TraceEvent[]): ReadonlySet<string> {
  const spans = new Map<string, AnswerSpan>();
  const parents = new Set<string>();
  for (const event of run) {
    const name = event.event;
    const atMs = Date.parse(event.time);
    if (name === 'llm_start' || name === 'tool_start')
      spans.set(event.span_id, {
        id: event.span_id,
        start: event.seq,
        end: Infinity,
        startMs: atMs,
        endMs: Infinity,
      });
    else if (name === 'llm_end' || name === 'tool_end') {
      const span = spans.get(event.span_id);
      if (span !== undefined) {
        span.end = event.seq;
        span.endMs = atMs;
      }
    }
    if (event.parent_span_id !== null && name.endsWith('_start')) parents.add(event.parent_span_id);
  }
  // In the order they started (the map keeps it); leaves only: a tool call that ran an agent
  // holds that agent's calls, it does not race them.
  const concurrent = new Set<string>();
  const times = run.map(event => Date.parse(event.time)).sort((left, right) => left - right);
  let open: AnswerSpan[] = [];
  for (const span of spans.values()) {
    if (parents.has(span.id)) continue;
    // Something else happened while it waited (its own start and end are at its edges).
    if (firstAfter(times, span.startMs) < firstAtOrAfter(times, span.endMs))
      concurrent.add(span.id);
    if (open.length > 0) open = open.filter(other => other.end > span.start);
    if (open.length > 0) {
      concurrent.add(span.id);
      for (const other of open) concurrent.add(other.id);
    }
    open.push(span);
  }
  // Parts of the run went on side by side: every answer comes at its time, so what each part
  // decides between two answers (a shared budget, a breaker, a quota) sees what it saw.
  if (concurrent.size > 0)
    for (const span of spans.values()) if (!parents.has(span.id)) concurrent.add(span.id);
  return concurrent;
}

/** The index of the first of the sorted `times` later than `atMs`. */
function firstAfter(times: readonly number[], atMs: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((times[middle] as number) <= atMs) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index of the first of the sorted `times` at or after `atMs`. */
function firstAtOrAfter(times: readonly number[], atMs: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((times[middle] as number) < atMs) low = middle + 1;
    else high = middle;
  }
  return low;
}
