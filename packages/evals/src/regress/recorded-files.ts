import type { TraceEvent } from '@agent-trace/core';
import { RunHistories } from '@agent-trace/core/record';
import { readTrace } from '@agent-trace/trace';
import type { RecordedRun } from './select-recorded.js';

/**
 * The recorded runs' events, each file read once however many of its runs are selected: a file's
 * runs are kept, grouped by run, until each has been taken, and dropped as they are, so memory
 * holds the files in use, not the library.
 */
export class RecordedFiles {
  readonly #open = new Map<string, Promise<Map<string, TraceEvent[]>>>();
  readonly #left = new Map<string, number>();

  constructor(selected: readonly RecordedRun[]) {
    for (const { file } of selected) this.#left.set(file, (this.#left.get(file) ?? 0) + 1);
  }

  /** The events of `recorded`'s run, in the order its file has them. */
  async take({ file, run }: RecordedRun): Promise<readonly TraceEvent[]> {
    let reading = this.#open.get(file);
    if (reading === undefined) {
      reading = byRun(file);
      this.#open.set(file, reading);
    }
    // Counted before the read, so a file that cannot be read is dropped all the same.
    const left = (this.#left.get(file) ?? 1) - 1;
    this.#left.set(file, left);
    if (left <= 0) this.#open.delete(file);
    const runs = await reading;
    const events = runs.get(run) ?? [];
    runs.delete(run);
    return events;
  }
}

/** A trace file's events, by run. */
async function byRun(file: string): Promise<Map<string, TraceEvent[]>> {
  const runs = new Map<string, TraceEvent[]>();
  // A run is taken out of its file: a conversation's turn gets its whole history.
  const histories = new RunHistories();
  for await (const read of readTrace(file)) {
    const event = read.event === 'run_start' ? histories.whole(read) : read;
    const events = runs.get(event.run);
    if (events === undefined) runs.set(event.run, [event]);
    else events.push(event);
  }
  return runs;
}
