import type { TraceEvent } from '@agent-trace/core';

/** A recorded answer's span: where it started and ended in the trace (seq). */
interface AnswerSpan {
  readonly id: string;
  readonly start: number;
  end: number;
}

/**
 * The spans of the recorded answers (model calls, and tool calls that ran no agent) that ran at
 * the same time as another: only those need to arrive in the order they came, on the rerun's clock.
 * An answer that ran alone is given at once, so a sequential run's rerun pays nothing for timing.
 */
export function concurrentAnswers(run: readonly TraceEvent[]): ReadonlySet<string> {
  const spans = new Map<string, AnswerSpan>();
  const parents = new Set<string>();
  for (const event of run) {
    const name = event.event;
    if (name === 'llm_start' || name === 'tool_start')
      spans.set(event.span_id, { id: event.span_id, start: event.seq, end: Infinity });
    else if (name === 'llm_end' || name === 'tool_end') {
      const span = spans.get(event.span_id);
      if (span !== undefined) span.end = event.seq;
    }
    if (event.parent_span_id !== null && name.endsWith('_start')) parents.add(event.parent_span_id);
  }
  // In the order they started (the map keeps it); leaves only: a tool call that ran an agent
  // holds that agent's calls, it does not race them.
  const concurrent = new Set<string>();
  let open: AnswerSpan[] = [];
  for (const span of spans.values()) {
    if (parents.has(span.id)) continue;
    if (open.length > 0) open = open.filter(other => other.end > span.start);
    if (open.length > 0) {
      concurrent.add(span.id);
      for (const other of open) concurrent.add(other.id);
    }
    open.push(span);
  }
  return concurrent;
}
