import { isJudgment, type TraceEvent } from '@agent-trace/core';

/** The events of one run, in file order. */
export interface TraceRun {
  readonly run: string;
  readonly events: readonly TraceEvent[];
  /** False when the run has no `run_end` (it was cut short). */
  readonly sealed: boolean;
}

/**
 * Groups a stream of events into runs, yielding each run as soon as its `run_end` is read, and
 * the runs never sealed at the end, in the order they began. Only the runs still open are held,
 * so a file of many runs is read in the memory of its largest run, not of the file. What judges
 * a run (people's `feedback`, scorers' `evaluation`) comes after its seal and is not part of it:
 * it is skipped here (read it from the events, or with `readFeedback`).
 *
 * @example
 * ```ts
 * for await (const { run, events } of groupRuns(readTrace('traces/all.jsonl'))) console.log(run, events.length);
 * ```
 */
export async function* groupRuns(
  events: AsyncIterable<TraceEvent> | Iterable<TraceEvent>,
): AsyncGenerator<TraceRun, void, undefined> {
  const open = new Map<string, TraceEvent[]>();
  for await (const event of events) {
    if (isJudgment(event)) continue;
    let held = open.get(event.run);
    if (held === undefined) {
      held = [];
      open.set(event.run, held);
    }
    held.push(event);
    if (event.event === 'run_end') {
      open.delete(event.run);
      yield { run: event.run, events: held, sealed: true };
    }
  }
  for (const [run, held] of open) yield { run, events: held, sealed: false };
}
