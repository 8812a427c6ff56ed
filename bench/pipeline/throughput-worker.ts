/**
 * The trace pipeline's throughput in a process of its own, compiled as a built application runs
 * agent-trace (see `compiled.ts`): `copies` runs of 1,000 steps written with the JSONL sink, with
 * `JSON.stringify` alone and with batched `fs.writeSync` of lines built beforehand; then read back
 * with `readTrace` and with a plain chunk-split + `JSON.parse`, interleaved. Leaves the file it
 * read as `<directory>/read.jsonl`. Usage: node throughput-worker.mjs <directory> <copies> <rounds>
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceEvent } from '@agent-trace/core';
import { jsonlSink, readTrace } from '@agent-trace/trace';
import { interleaved } from '../measure.js';
import { batches, plainSplitParse, writeBatches } from './raw-io.js';
import { repeatRuns, sampleEvents } from './sample-events.js';

/** What the worker reports: median milliseconds of each way of writing and of reading. */
export interface ThroughputSample {
  events: number;
  steps: number;
  bytes: number;
  write: Record<string, number>;
  read: Record<string, number>;
}

/** The events' lines in ~64 KiB buffers, and their size in bytes. */
function linesOf(list: readonly TraceEvent[]): { chunks: Buffer[]; bytes: number } {
  const chunks = batches(list.map(event => `${JSON.stringify(event)}\n`));
  return { chunks, bytes: chunks.reduce((sum, chunk) => sum + chunk.length, 0) };
}

const [directory = '', copies = '25', rounds = '5'] = process.argv.slice(2);
const events = repeatRuns(await sampleEvents(1000), Number(copies));
// The lines are dropped once batched: a heap kept full of them would slow every collection.
const { chunks, bytes } = linesOf(events);
const sinkPath = join(directory, 'sink.jsonl');
let stringified = 0;
const write = await interleaved(
  {
    'jsonlSink (stringify + write)': async () => {
      const sink = jsonlSink(sinkPath);
      for (const event of events) sink.write(event);
      await sink.close();
    },
    'writeSync of pre-built lines': () => writeBatches(join(directory, 'raw.jsonl'), chunks),
    'JSON.stringify only': () => {
      for (const event of events) stringified += JSON.stringify(event).length;
    },
  },
  Number(rounds),
  // Removing the file (its pages in the cache freed) is the bench's, not the sink's, work.
  { 'jsonlSink (stringify + write)': () => rmSync(sinkPath, { force: true }) },
);
if (stringified === 0) throw new Error('nothing was stringified');

const readPath = join(directory, 'read.jsonl');
writeBatches(readPath, chunks);
const read = await interleaved(
  {
    readTrace: async () => {
      let count = 0;
      for await (const event of readTrace(readPath)) if (event.seq >= 0) count++;
      if (count !== events.length) throw new Error(`readTrace read ${count} events.`);
    },
    'chunk-split + JSON.parse': () => plainSplitParse(readPath),
  },
  Number(rounds),
);
const sample: ThroughputSample = {
  events: events.length,
  steps: Number(copies) * 1000,
  bytes,
  write,
  read,
};
process.stdout.write(`${JSON.stringify(sample)}\n`);
