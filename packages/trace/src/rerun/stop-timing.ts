import type { TraceEvent } from '@agent-trace/core';
import type { Divergence } from './compare-traces.js';
import { carries, recordedStop } from './recorded-stop.js';

/**
 * The differences a stop from outside makes by its timing alone, left out of a rerun's report.
 * A recorded run that was stopped (its caller's signal, a stream's reader, its deadline) while
 * parts of it ran side by side (a workflow's steps, parallel agents) records where the stop met
 * each part only as closely as those parts' own events: a part between two calls when the stop
 * came may, in the rerun, have begun the next call, which the stop then cut, or not yet begun one
 * the stop cut in the recording, or ended just before the stop where the recorded one was cut.
 * Such a call, tool or step, begun and cut by the stop in one run and absent from the other, or
 * cut in the recording and ended in the rerun, in a part of the run that ran beside another the
 * stop cut, is the same behaviour. A stop that met the run in one place (no part beside another)
 * is exact, and so is everything before it.
 */
export function withoutStopTiming(
  differences: readonly Divergence[],
  recorded: readonly TraceEvent[],
  rerun: readonly TraceEvent[],
): readonly Divergence[] {
  const stop = recordedStop(recorded);
  if (stop === undefined || differences.length === 0) return differences;
  const cut = (event: TraceEvent): boolean => carries(event, stop.error);
  const sides = { extra: cutBeside(rerun, cut), missing: cutBeside(recorded, cut) };
  const agentsBeside = new Set(
    recorded.filter(event => sides.missing.beside.has(event.span_id)).map(event => event.agent),
  );
  const cutText = new RegExp(`: (${escape(stop.error.type)}|aborted)$`);
  return differences.filter(difference => {
    if (difference.kind === 'changed')
      // The recorded part ended cut by the stop; the rerun's ended before the stop reached it.
      return !(
        agentsBeside.has(difference.agent) &&
        difference.expected !== undefined &&
        cutText.test(difference.expected)
      );
    // The event, or the part of the run it is in (a call in a step the stop cut).
    const events = difference.kind === 'extra' ? rerun : recorded;
    const { beside, chain } = sides[difference.kind];
    const event = events.find(each => each.seq === difference.seq);
    return event === undefined || ![...chain(event.span_id)].some(span => beside.has(span));
  });
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The spans of `events` the stop cut that ran beside another it cut (neither holds the other), and
 * each span's chain of spans that hold it.
 */
function cutBeside(
  events: readonly TraceEvent[],
  carries: (event: TraceEvent) => boolean,
): { beside: Set<string>; chain: (span: string) => Set<string> } {
  const parents = new Map<string, string | null>();
  for (const event of events) parents.set(event.span_id, event.parent_span_id);
  const chain = (span: string): Set<string> => {
    const seen = new Set<string>();
    for (
      let at: string | null | undefined = span;
      at != null && !seen.has(at);
      at = parents.get(at)
    )
      seen.add(at);
    return seen;
  };
  const cut = [
    ...new Set(
      events.filter(event => carries(event) && event.event !== 'run_end').map(e => e.span_id),
    ),
  ].map(span => ({ span, chain: chain(span) }));
  const beside = new Set<string>();
  for (const one of cut)
    for (const other of cut)
      if (!one.chain.has(other.span) && !other.chain.has(one.span)) beside.add(one.span);
  return { beside, chain };
}
