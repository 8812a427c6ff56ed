import { basename } from 'node:path';
import type { TraceEvent } from '@agent-trace/core';
import {
  alignTraces,
  describeNewerContent,
  describeReplacedBytes,
  describeTornTail,
  groupRuns,
  readTrace,
  type RerunReport,
  type TraceRun,
} from '@agent-trace/trace';
import type { RunDiffData, TraceFileData, ViewerData } from './viewer-data.js';

/** The events of a trace file with what the reader warned about. */
export async function readTraceFile(file: string): Promise<TraceFileData> {
  const warnings: string[] = [];
  const events: TraceEvent[] = [];
  const stream = readTrace(file, {
    onTornTail: tail => warnings.push(describeTornTail(tail)),
    onNewerContent: content => warnings.push(describeNewerContent(content)),
    onReplacedBytes: at => warnings.push(describeReplacedBytes(at)),
  });
  for await (const event of stream) events.push(event);
  return { name: file, events, warnings };
}

/**
 * The page data for some trace files: every run of each. Throws the reader's error (with file and
 * line) when a file cannot be read.
 */
export async function traceView(files: readonly string[]): Promise<ViewerData> {
  const data: TraceFileData[] = [];
  for (const file of files) data.push(await readTraceFile(file));
  return { mode: 'trace', title: files.map(file => basename(file)).join(', '), files: data };
}

/**
 * The page data comparing two traces: the n-th run to end in one against the n-th in the other,
 * as `agent-trace diff` pairs them, each pair aligned step by step.
 */
export async function diffView(expectedFile: string, actualFile: string): Promise<ViewerData> {
  const [expected, actual] = await Promise.all([
    readTraceFile(expectedFile),
    readTraceFile(actualFile),
  ]);
  const runs = await alignedRuns(expected.events, actual.events);
  return {
    mode: 'diff',
    title: `${basename(expectedFile)} → ${basename(actualFile)}`,
    expectedName: expectedFile,
    actualName: actualFile,
    expected: expected.events,
    actual: actual.events,
    runs,
  };
}

/** Two traces' runs paired in the order they end, as `agent-trace diff` pairs them, each aligned. */
export async function alignedRuns(
  expected: readonly TraceEvent[],
  actual: readonly TraceEvent[],
): Promise<RunDiffData[]> {
  const [left, right] = await Promise.all([runsOf(expected), runsOf(actual)]);
  const runs: RunDiffData[] = [];
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const a = left[index];
    const b = right[index];
    runs.push({
      index: index + 1,
      expectedRun: a?.run,
      actualRun: b?.run,
      steps: alignTraces(a?.events ?? [], b?.events ?? []),
    });
  }
  return runs;
}

/** The page data of a rerun: the recorded run against the run today's code made. */
export function rerunView(report: RerunReport<unknown>, file: string): ViewerData {
  const recordedRun = report.recorded[0]?.run;
  const rerunRun = report.rerun[0]?.run;
  return {
    mode: 'diff',
    title: `rerun of ${basename(file)}`,
    expectedName: `${file} (recording)`,
    actualName: 'rerun (today’s code)',
    expected: report.recorded,
    actual: report.rerun,
    runs: [
      {
        index: 1,
        expectedRun: recordedRun,
        actualRun: rerunRun,
        steps: alignTraces(report.recorded, report.rerun),
      },
    ],
  };
}

async function runsOf(events: readonly TraceEvent[]): Promise<TraceRun[]> {
  const runs: TraceRun[] = [];
  for await (const run of groupRuns(events.values())) runs.push(run);
  return runs;
}
