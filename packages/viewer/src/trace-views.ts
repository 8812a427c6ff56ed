import { basename } from 'node:path';
import type { TraceEvent } from '@agent-trace/core';
import {
  agentTurnOf,
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

/**
 * Two traces' runs paired, each pair aligned step by step: the turns of conversations by
 * conversation and turn, the other runs in the order they end (as `agent-trace diff` pairs them).
 */
export async function alignedRuns(
  expected: readonly TraceEvent[],
  actual: readonly TraceEvent[],
): Promise<RunDiffData[]> {
  const [left, right] = await Promise.all([runsOf(expected), runsOf(actual)]);
  return pairedRuns(left, right).map(([a, b], index) => {
    const turn = turnOf(a) ?? turnOf(b);
    return {
      index: index + 1,
      expectedRun: a?.run,
      actualRun: b?.run,
      ...(turn === undefined ? {} : { turn }),
      steps: alignTraces(a?.events ?? [], b?.events ?? []),
    };
  });
}

/** The turn of a conversation a run is (the agent's, not a simulated user's reply). */
function turnOf(run: TraceRun | undefined): RunDiffData['turn'] {
  const start = run?.events[0];
  const turn = start === undefined ? undefined : agentTurnOf(start);
  return turn === undefined ? undefined : { conversation: turn.id, turn: turn.turn };
}

/**
 * The runs of two traces in pairs: turns of conversations by conversation and turn (so two
 * recordings of a conversation compare turn by turn, however their runs interleave), the other
 * runs in order; a run the other side lacks is paired with nothing.
 */
function pairedRuns(
  left: readonly TraceRun[],
  right: readonly TraceRun[],
): [TraceRun | undefined, TraceRun | undefined][] {
  const key = (run: TraceRun): string | undefined => {
    const turn = turnOf(run);
    return turn === undefined ? undefined : `${turn.turn}\u0000${turn.conversation}`;
  };
  const byTurn = new Map<string, TraceRun>();
  const others: TraceRun[] = [];
  for (const run of right) {
    const at = key(run);
    if (at === undefined || byTurn.has(at)) others.push(run);
    else byTurn.set(at, run);
  }
  const pairs: [TraceRun | undefined, TraceRun | undefined][] = [];
  for (const run of left) {
    const at = key(run);
    const match = at === undefined ? undefined : byTurn.get(at);
    if (at !== undefined && match !== undefined) byTurn.delete(at);
    pairs.push([run, at === undefined ? others.shift() : match]);
  }
  for (const run of [...byTurn.values(), ...others]) pairs.push([undefined, run]);
  return pairs;
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
