/**
 * The trace pipeline against the raw limits of the same machine: the JSONL sink against
 * `JSON.stringify` alone and against batched `fs.writeSync` of lines built beforehand; `readTrace`
 * against a plain chunk-split + `JSON.parse` loop; and the RSS of a process reading a large trace.
 */
import { createReadStream, mkdtempSync, openSync, closeSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TraceEvent } from '@agent-trace/core';
import { build } from 'esbuild';
import { jsonlSink, readTrace } from '@agent-trace/trace';
import { figure, interleaved, ratio, runWorker, table } from './measure.js';
import type { CommandSample } from './pipeline/command-worker.js';
import type { ReadSample } from './pipeline/read-worker.js';
import { repeatRuns, sampleEvents } from './pipeline/sample-events.js';

/** Events/s and MB/s of one way of writing or reading the same data. */
export interface Throughput {
  name: string;
  eventsPerSecond: number;
  megabytesPerSecond: number;
}

/** What the pipeline benchmark measured. */
export interface PipelineResult {
  events: number;
  /** Events a step of the loop scenario writes (four, and the run's own spread over its steps). */
  eventsPerStep: number;
  megabytes: number;
  writing: Throughput[];
  /** JSONL sink rate / stringify-only rate. */
  sinkShareOfStringify: number;
  reading: Throughput[];
  /** readTrace rate / plain split + parse rate. */
  readerShareOfPlain: number;
  largeFile: ReadSample;
  /** `replay`, `stats` and `diff` (the file against itself) on the large file, each in its own process. */
  commands: CommandSample[];
}

const throughput = (name: string, events: number, bytes: number, milliseconds: number) => ({
  name,
  eventsPerSecond: (events / milliseconds) * 1000,
  megabytesPerSecond: bytes / 2 ** 20 / (milliseconds / 1000),
});

/** Lines joined into ~64 KiB buffers, as a batched writer would hand them to the kernel. */
function batches(lines: readonly string[]): Buffer[] {
  const out: Buffer[] = [];
  let pending: string[] = [];
  let size = 0;
  for (const line of lines) {
    pending.push(line);
    size += line.length;
    if (size >= 65_536) {
      out.push(Buffer.from(pending.join(''), 'utf8'));
      pending = [];
      size = 0;
    }
  }
  if (pending.length > 0) out.push(Buffer.from(pending.join(''), 'utf8'));
  return out;
}

function writeBatches(path: string, chunks: readonly Buffer[], times = 1): void {
  const fd = openSync(path, 'w');
  try {
    for (let time = 0; time < times; time++) for (const chunk of chunks) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

async function plainSplitParse(path: string): Promise<number> {
  let events = 0;
  let pending = '';
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20, encoding: 'utf8' })) {
    const text = pending + (chunk as string);
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      if (end === -1) break;
      JSON.parse(text.slice(start, end));
      events++;
      start = end + 1;
    }
    pending = text.slice(start);
  }
  return events;
}

/**
 * Measures writing and reading `copies` runs of 1,000 steps (~1.9 MB each), then reads a file of
 * about `largeFileMb` in a separate process for its RSS.
 */
export async function measureTracePipeline(
  copies: number,
  largeFileMb: number,
  rounds: number,
): Promise<PipelineResult> {
  const directory = mkdtempSync(join(tmpdir(), 'agent-trace-bench-pipeline-'));
  try {
    const events: TraceEvent[] = repeatRuns(await sampleEvents(1000), copies);
    const lines = events.map(event => `${JSON.stringify(event)}\n`);
    const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0);
    const chunks = batches(lines);
    const sinkPath = join(directory, 'sink.jsonl');
    const rawPath = join(directory, 'raw.jsonl');
    let stringified = 0;
    const write = await interleaved(
      {
        'jsonlSink (stringify + write)': async () => {
          const sink = jsonlSink(sinkPath);
          for (const event of events) sink.write(event);
          await sink.close();
        },
        'JSON.stringify only': () => {
          for (const event of events) stringified += JSON.stringify(event).length;
        },
        'writeSync of pre-built lines': () => writeBatches(rawPath, chunks),
      },
      rounds,
      // Removing the file (its pages in the cache freed) is the bench's, not the sink's, work.
      { 'jsonlSink (stringify + write)': () => rmSync(sinkPath, { force: true }) },
    );
    const writing = Object.entries(write).map(([name, ms]) =>
      throughput(name, events.length, bytes, ms),
    );

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
      rounds,
    );
    const reading = Object.entries(read).map(([name, ms]) =>
      throughput(name, events.length, bytes, ms),
    );

    const largePath = join(directory, 'large.jsonl');
    writeBatches(largePath, chunks, Math.max(1, Math.round((largeFileMb * 2 ** 20) / bytes)));
    // Bundled and run by plain node, as a built application would: tsx alone holds ~50 MB.
    const largeFile = await runWorker<ReadSample>(
      await bundle('bench/pipeline/read-worker.ts', directory),
      [largePath],
    );
    const commandWorker = await bundle('bench/pipeline/command-worker.ts', directory);
    const commands: CommandSample[] = [];
    for (const args of [
      ['replay', largePath],
      ['stats', largePath],
      ['diff', largePath, largePath],
    ])
      commands.push(await runWorker<CommandSample>(commandWorker, args));
    if (stringified === 0) throw new Error('nothing was stringified');
    return {
      events: events.length,
      eventsPerStep: events.length / (copies * 1000),
      megabytes: bytes / 2 ** 20,
      writing,
      sinkShareOfStringify: write['JSON.stringify only'] / write['jsonlSink (stringify + write)'],
      reading,
      readerShareOfPlain: read['chunk-split + JSON.parse'] / read.readTrace,
      largeFile,
      commands,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The pipeline's tables. */
export function formatTracePipeline(result: PipelineResult): string {
  const rows = (list: readonly Throughput[]) =>
    list.map(item => [
      item.name,
      `${figure(item.eventsPerSecond / 1000)} k`,
      figure(item.megabytesPerSecond),
    ]);
  const large = result.largeFile;
  return [
    table([
      [`writing ${result.events} events (${result.megabytes.toFixed(0)} MB)`, 'events/s', 'MB/s'],
      ...rows(result.writing),
    ]),
    `JSONL sink / stringify only: ${ratio(result.sinkShareOfStringify)}`,
    '',
    table([['reading the same file', 'events/s', 'MB/s'], ...rows(result.reading)]),
    `readTrace / split + parse: ${ratio(result.readerShareOfPlain)}`,
    '',
    `readTrace over a ${(large.bytes / 2 ** 30).toFixed(2)} GB trace: ${large.events} events in ${(large.milliseconds / 1000).toFixed(1)} s, ` +
      `RSS ${large.rssBeforeMb.toFixed(0)} MB before reading, peak ${large.peakRssMb.toFixed(0)} MB`,
    '',
    table([
      ['agent-trace <command> on that trace', 'seconds', 'peak RSS MB', 'output MB', 'exit'],
      ...result.commands.map(sample => [
        sample.command,
        figure(sample.milliseconds / 1000),
        sample.peakRssMb.toFixed(0),
        sample.outputMb.toFixed(0),
        String(sample.exitCode),
      ]),
    ]),
  ].join('\n');
}

/**
 * The tokenizer core imports only to estimate tokens for cost: a built application loads it on
 * first use, while a bundle parses it at start (its ranks are 5 MB of source, about 25 MB of RSS
 * in every command), so it stays outside the bundle.
 */
const loadedOnUse = ['js-tiktoken', '@duckdb/node-api'];

/**
 * Bundles a worker into one ES module in `directory`, for plain node. The banner gives the bundled
 * CommonJS dependencies (gRPC, for the CLI's export) the `require` of Node's built-ins.
 */
export async function bundle(entry: string, directory: string): Promise<string> {
  const outfile = join(directory, `${entry.split('/').at(-1)?.replace(/\.ts$/, '')}.mjs`);
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    external: loadedOnUse,
    logLevel: 'error',
    banner: {
      js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
    },
  });
  return outfile;
}
