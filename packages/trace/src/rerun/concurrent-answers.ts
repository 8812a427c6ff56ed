import type { TraceEvent } from '@agent-trace/core';
import { madeOf } from './made-order.js';

/** A recorded answer's span: where the run made its start and end (see `madeOf`), and when. */
interface AnswerSpan {
  readonly id: string;
  readonly start: number;
  end: number;
  readonly startMs: number;
  endMs: number;
}

/**
 * The spans of the recorded answers (model calls, and tool calls that ran no agent) that must
 * arrive at their recorded times on the rerun's clock: every one, when parts of the run went on
 * side by side (two answers overlapped, or another part made an event while one was awaited), so
 * that what each part decides between two answers (a shared budget, a breaker, a quota) sees what
 * it saw; none in a run that went on one step at a time, whose rerun pays nothing for timing.
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
        start: madeOf(event),
        end: Infinity,
        startMs: atMs,
        endMs: Infinity,
      });
    else if (name === 'llm_end' || name === 'tool_end') {
      const span = spans.get(event.span_id);
      if (span !== undefined) {
        span.end = madeOf(event);
        span.endMs = atMs;
      }
    }
    if (event.parent_span_id !== null && name.endsWith('_start')) parents.add(event.parent_span_id);
  }
  // Leaves only: a tool call that ran an agent holds that agent's calls, it does not race them.
  const answers = [...spans.values()]
    .filter(span => !parents.has(span.id))
    .sort((left, right) => left.start - right.start);
  return sideBySide(run, answers) ? new Set(answers.map(span => span.id)) : new Set();
}

/**
 * True when answers overlapped (in the order they started), or
 * something happened while one was awaited (its own start and end are at its edges).
 */
function sideBySide(run: readonly TraceEvent[], answers: readonly AnswerSpan[]): boolean {
  let latestEnd = -Infinity;
  for (const span of answers) {
    if (span.start < latestEnd) return true;
    latestEnd = Math.max(latestEnd, span.end);
  }
  const times = run.map(event => Date.parse(event.time)).sort((left, right) => left - right);
  return answers.some(
    span => firstAfter(times, span.startMs, false) < firstAfter(times, span.endMs, true),
  );
}

/** The index of the first of the sorted `times` later than `atMs` (or at it, with `atOrAfter`). */
function firstAfter(times: readonly number[], atMs: number, atOrAfter: boolean): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const value = times[middle] as number;
    if (value < atMs || (!atOrAfter && value === atMs)) low = middle + 1;
    else high = middle;
  }
  return low;
}
