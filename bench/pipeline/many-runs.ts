/**
 * A trace of many small runs, as a service that records every request leaves it: one run's events
 * again and again with fresh run, session and trace ids, to a size on disk.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { TraceEvent } from '@agent-trace/core';

/** Writes copies of `events` as runs of their own until the file holds `bytes`; returns the counts. */
export function writeManyRuns(
  path: string,
  events: readonly TraceEvent[],
  bytes: number,
): { runs: number; events: number; bytes: number } {
  const fd = openSync(path, 'w');
  let written = 0;
  let runs = 0;
  try {
    while (written < bytes) {
      const id = `bench-run-${runs}`;
      const traceId = runs.toString(16).padStart(32, '0');
      const text = events
        .map(event => `${JSON.stringify({ ...event, run: id, session: id, trace_id: traceId })}\n`)
        .join('');
      written += writeSync(fd, text);
      runs++;
    }
  } finally {
    closeSync(fd);
  }
  return { runs, events: runs * events.length, bytes: written };
}
