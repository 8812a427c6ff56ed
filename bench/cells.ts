/**
 * A cell of the loop and wire benchmarks: one subject at one N in a process of its own, compiled
 * as a built application runs and capped, and how a cell reads in a table.
 */
import { compiledWorker } from './compiled.js';
import { CappedCell, figure, runWorker, table } from './measure.js';
import type { LoopSample } from './peers/measure-cell.js';

/** A cell's caps: past either, the cell stops and reports what it reached. */
export const cellCaps = {
  seconds: Number(process.env.BENCH_CELL_SECONDS ?? 60),
  memoryMb: Number(process.env.BENCH_CELL_MB ?? 1500),
};

/** What runs a cell. */
export interface CellSpec {
  /** A `.ts` worker (compiled first) or a compiled `.mjs` one. */
  readonly worker: string;
  /** The key the samples carry. */
  readonly subject: string;
  /** The row name, for a cell capped before it printed anything. @defaultValue `subject` */
  readonly name?: string;
  readonly args: readonly string[];
  readonly steps: number;
  /** The Node binary. @defaultValue this process's */
  readonly node?: string;
}

/** A cell's sample with nothing measured: what a left-out cell shows, and a capped one starts from. */
function unmeasured(cell: Pick<CellSpec, 'subject' | 'name' | 'steps'>): LoopSample {
  return {
    subject: cell.subject,
    name: cell.name ?? cell.subject,
    kind: cell.subject.startsWith('agent-trace') ? 'agent-trace' : 'peer',
    steps: cell.steps,
    microsecondsPerStep: Number.NaN,
    runs: 0,
    peakRssMb: Number.NaN,
  };
}

/** A cell left out, with why: a row of the table that says so (`—`) instead of a number. */
export function notRunCell(
  cell: Pick<CellSpec, 'subject' | 'name' | 'steps'>,
  why: string,
): LoopSample {
  return { ...unmeasured(cell), notRun: why };
}

/** Runs one cell: its last sample, or, when capped, what it had reached, marked `capped`. */
export async function workerCell(cell: CellSpec): Promise<LoopSample> {
  try {
    return await runWorker<LoopSample>(
      cell.worker.endsWith('.ts') ? await compiledWorker(cell.worker) : cell.worker,
      cell.args,
      cellCaps.seconds * 1000,
      cellCaps.memoryMb,
      cell.node,
    );
  } catch (error) {
    if (!(error instanceof CappedCell)) throw error;
    const reached = error.reached as LoopSample | undefined;
    const empty = unmeasured(cell);
    return {
      ...empty,
      name: reached?.name ?? empty.name,
      microsecondsPerStep: reached?.microsecondsPerStep ?? Number.NaN,
      runs: reached?.runs ?? 0,
      peakRssMb: reached?.peakRssMb ?? Number.NaN,
      capped: error.cap,
    };
  }
}

/**
 * A cell's µs per step, with `*` when it was capped (what it reached before) and `†` when its
 * tracing client dropped work (not the time of a tracer that kept up).
 */
export function perStepText(sample: LoopSample | undefined): string {
  if (sample === undefined || sample.notRun !== undefined) return '—';
  const dropped = sample.dropped === undefined ? '' : '†';
  if (Number.isNaN(sample.microsecondsPerStep))
    return sample.dropped === undefined ? 'capped' : 'dropped';
  return `${figure(sample.microsecondsPerStep)}${sample.capped === undefined ? '' : '*'}${dropped}`;
}

/** The lines under a table that say which cells were capped and which dropped work. */
export function cellNotes(
  samples: readonly LoopSample[],
  nameOf: (subject: string) => string,
): string {
  const runs = (count: number) => `${count} run${count === 1 ? '' : 's'}`;
  const capped = samples
    .filter(sample => sample.capped !== undefined)
    .map(
      sample =>
        `${nameOf(sample.subject)} at N = ${sample.steps} capped at ${sample.capped} after ${runs(sample.runs)}`,
    );
  const dropped = samples
    .filter(sample => sample.dropped !== undefined)
    .map(
      sample => `${nameOf(sample.subject)} at N = ${sample.steps} dropped ${runs(sample.dropped!)}`,
    );
  const notRun = [...new Set(samples.flatMap(sample => sample.notRun ?? []))].map(why => {
    const cells = [
      ...new Set(
        samples
          .filter(sample => sample.notRun === why)
          .map(sample => `${nameOf(sample.subject)} at N = ${sample.steps}`),
      ),
    ];
    return `${cells.join('; ')}: ${why}`;
  });
  const lines = [
    ...(notRun.length === 0
      ? []
      : [`— not run, to keep the bench in its budget: ${notRun.join('. ')}`]),
    ...(capped.length === 0
      ? []
      : [`* capped (the cell stopped, its numbers are what it reached): ${capped.join('; ')}`]),
    ...(dropped.length === 0
      ? []
      : [
          `† its tracing client dropped work (a full queue), so this is not the time of a tracer that kept up: ${dropped.join('; ')}`,
        ]),
  ];
  return lines.map(line => `\n\n${line}`).join('');
}

/** Bytes as KB or MB. */
function bytesText(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes)) return '—';
  return bytes >= 2 ** 20 ? `${figure(bytes / 2 ** 20)} MB` : `${figure(bytes / 1024)} KB`;
}

/**
 * Memory and garbage collection of each row at `steps`: the median step against the mean (pauses
 * included), the share of the timed runs spent collecting, what a finished run leaves held, and
 * the peak resident memory of the cell.
 */
export function formatMemory<Sample extends LoopSample>(
  samples: readonly Sample[],
  steps: number,
  rowOf: (sample: Sample) => string = sample => sample.name,
): string {
  const percent = (share: number | undefined) =>
    share === undefined || !Number.isFinite(share) ? '—' : `${(share * 100).toFixed(0)}%`;
  const rows = samples
    .filter(sample => sample.steps === steps)
    .map(sample => [
      rowOf(sample),
      perStepText(sample),
      sample.meanMicrosecondsPerStep === undefined ? '—' : figure(sample.meanMicrosecondsPerStep),
      percent(sample.gcShare),
      sample.retainedBytesPerStep === undefined ? '—' : `${figure(sample.retainedBytesPerStep)} B`,
      bytesText((sample.retainedBytesPerStep ?? Number.NaN) * steps),
      Number.isFinite(sample.peakRssMb) ? `${sample.peakRssMb.toFixed(0)} MB` : '—',
    ]);
  return table([
    [
      `at N = ${steps}`,
      'median µs/step',
      'mean µs/step',
      'GC share',
      'held a step',
      'held a run',
      'peak RSS',
    ],
    ...rows,
  ]);
}
