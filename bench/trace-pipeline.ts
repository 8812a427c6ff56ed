/**
 * The trace pipeline against the raw limits of the same machine: the JSONL sink against
 * `JSON.stringify` alone and against batched `fs.writeSync` of lines built beforehand; `readTrace`
 * against a plain chunk-split + `JSON.parse` loop (in a compiled worker, as the loop's cells run);
 * and the RSS of a process reading a large trace.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundle, compiledWorker } from './compiled.js';
import { figure, ratio, runWorker, table } from './measure.js';
import type { CommandSample } from './pipeline/command-worker.js';
import { writeBatches } from './pipeline/raw-io.js';
import type { ReadSample } from './pipeline/read-worker.js';
import type { ThroughputSample } from './pipeline/throughput-worker.js';

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

/**
 * Measures writing and reading `copies` runs of 1,000 steps (~1.9 MB each) in a compiled worker,
 * then reads a file of about `largeFileMb` in a separate process for its RSS.
 */
export async function measureTracePipeline(
  copies: number,
  largeFileMb: number,
  rounds: number,
): Promise<PipelineResult> {
  const directory = mkdtempSync(join(tmpdir(), 'agent-trace-bench-pipeline-'));
  try {
    const { events, steps, bytes, write, read } = await runWorker<ThroughputSample>(
      await compiledWorker('bench/pipeline/throughput-worker.ts'),
      [directory, String(copies), String(rounds)],
    );
    const rates = (times: Record<string, number>) =>
      Object.entries(times).map(([name, ms]) => throughput(name, events, bytes, ms));

    const largePath = join(directory, 'large.jsonl');
    const copy = readFileSync(join(directory, 'read.jsonl'));
    writeBatches(largePath, [copy], Math.max(1, Math.round((largeFileMb * 2 ** 20) / bytes)));
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
    return {
      events,
      eventsPerStep: events / steps,
      megabytes: bytes / 2 ** 20,
      writing: rates(write),
      sinkShareOfStringify: write['JSON.stringify only']! / write['jsonlSink (stringify + write)']!,
      reading: rates(read),
      readerShareOfPlain: read['chunk-split + JSON.parse']! / read.readTrace!,
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
