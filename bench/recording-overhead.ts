/**
 * What recording costs another framework's agent, measured one way for every bridge: the same run
 * with the framework's tracing off, with a hook that does nothing (what the framework's own events
 * cost), and recording to memory and to a JSONL file. Interleaved rounds; µs a step.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TraceSink } from '@agent-trace/core';
import { jsonlSink, memorySink } from '@agent-trace/trace';
import { interleaved, ratio, table } from './measure.js';

/** The runs a bridge's cells make. */
export interface RecordingCells {
  /** The run with the framework's tracing off. */
  readonly off: () => Promise<unknown>;
  /** The run with a hook that does nothing. */
  readonly noop: () => Promise<unknown>;
  /** The run recorded into `trace`, its recorder flushed. */
  readonly record: (trace: TraceSink) => Promise<unknown>;
}

/** µs a step, by way of recording. */
export interface RecordingOverhead {
  readonly steps: number;
  readonly off: number;
  readonly noop: number;
  readonly memory: number;
  readonly jsonl: number;
}

/** Untimed runs of every way before the timed rounds. */
const warmUpRuns = 5;

export async function measureRecording(
  steps: number,
  rounds: number,
  cells: RecordingCells,
): Promise<RecordingOverhead> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-bench-recording-'));
  let files = 0;
  const ways = {
    off: cells.off,
    noop: cells.noop,
    memory: () => cells.record(memorySink()),
    jsonl: async () => {
      const sink = jsonlSink(join(folder, `${files++}.jsonl`));
      await cells.record(sink);
      await sink.close();
    },
  };
  // Each cell is a fresh process: until every way has run a few times, the first ways timed were
  // still being compiled (telemetry off came out slower than recording).
  for (let warm = 0; warm < warmUpRuns; warm++) for (const way of Object.values(ways)) await way();
  const times = await interleaved(ways, rounds);
  rmSync(folder, { recursive: true, force: true });
  const per = (ms: number) => (ms * 1000) / steps;
  return {
    steps,
    off: per(times.off),
    noop: per(times.noop),
    memory: per(times.memory),
    jsonl: per(times.jsonl),
  };
}

/** A bridge's table: each way as µs a step and its ratio to tracing off. */
export function recordingTable(
  labels: {
    readonly run: string;
    readonly off: string;
    readonly noop: string;
    readonly recorder: string;
  },
  result: RecordingOverhead,
): string {
  return table([
    [labels.run, 'µs a step', '/ off'],
    [labels.off, result.off.toFixed(1), '1.00×'],
    [labels.noop, result.noop.toFixed(1), ratio(result.noop / result.off)],
    [`${labels.recorder} → memory`, result.memory.toFixed(1), ratio(result.memory / result.off)],
    [`${labels.recorder} → JSONL`, result.jsonl.toFixed(1), ratio(result.jsonl / result.off)],
  ]);
}
