/**
 * How a cell measures one subject at one N, shared by the loop and wire workers: a warm-up at a
 * small size, then timed runs for `budgetMs`, the sample so far printed as a JSON line after every
 * run (a cell stopped at its cap reports what it reached).
 */
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median, timeIt } from '../measure.js';
import type { Subject } from './subject.js';

setFlagsFromString('--expose-gc');
/** A full garbage collection, for counting what a finished run leaves held. */
const collectGarbage = runInNewContext('gc') as () => void;

/** What one worker reports. */
export interface LoopSample {
  subject: string;
  name: string;
  kind: 'agent-trace' | 'peer';
  steps: number;
  microsecondsPerStep: number;
  /** The mean, garbage collection pauses and all (the median leaves most of them out). */
  meanMicrosecondsPerStep?: number;
  /** Time in garbage collection over the wall time of the timed runs. */
  gcShare?: number;
  /**
   * Heap held after a run and a full collection, with the run's result kept, over the heap before
   * it, per step: what a finished run leaves for its caller and the framework to hold.
   */
  retainedBytesPerStep?: number;
  runs: number;
  peakRssMb: number;
  /** Set when the cell was stopped at its cap: what it reached is what the numbers are. */
  capped?: string;
  /**
   * Set when the cell was left out to keep the bench in its budget, with why (a cell known to
   * run past its cap, or a peer whose cost at that N another table shows).
   */
  notRun?: string;
  /** Work the subject's tracing client dropped (runs LangSmith's full queue threw away). */
  dropped?: number;
}

/** One timed run of `steps`: its milliseconds. */
async function timedRun(subject: Subject, steps: number): Promise<number> {
  const prepared = await subject.prepare(steps);
  const milliseconds = await timeIt(() => prepared.run());
  await prepared.finish();
  return milliseconds;
}

/** The result of the run being counted, held across the collection after it. */
const holder: { result?: unknown } = {};

/**
 * One timed run of `steps`, fully collected before and after: its milliseconds, and the heap it
 * left held (its result kept) per step.
 */
async function countedRun(
  subject: Subject,
  steps: number,
): Promise<{ milliseconds: number; gcMilliseconds: number; retainedBytesPerStep: number }> {
  const prepared = await subject.prepare(steps);
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const gc = gcClock();
  const milliseconds = await timeIt(async () => {
    holder.result = await prepared.run();
  });
  const gcMilliseconds = gc.stop();
  collectGarbage();
  const retained = process.memoryUsage().heapUsed - before;
  holder.result = undefined;
  await prepared.finish();
  return { milliseconds, gcMilliseconds, retainedBytesPerStep: Math.max(0, retained) / steps };
}

/** Milliseconds spent in garbage collection from now on: `read` them, or `stop` and read. */
function gcClock(): { read(): number; stop(): number } {
  // V8's own accounting, read synchronously (a PerformanceObserver's gc entries only arrive when
  // the event loop turns, which a run on a scripted model never lets it do).
  const profiler = new GCProfiler();
  profiler.start();
  let total = 0;
  const read = () => {
    for (const entry of profiler.stop()?.statistics ?? []) total += entry.cost / 1000;
    profiler.start();
    return total;
  };
  return {
    read,
    stop: () => {
      read();
      profiler.stop();
      return total;
    },
  };
}

/** Measures `subject` at `steps` for about `budgetMs`, printing its sample after every run. */
export async function measureCell(
  key: string,
  subject: Subject,
  steps: number,
  budgetMs: number,
): Promise<LoopSample> {
  // Warm-up: the JIT sees every path at a small size, then once at the measured size.
  const warmSize = Math.min(steps, 50);
  const warmUntil = performance.now() + Math.min(1500, budgetMs / 2);
  for (let index = 0; index < 3 || performance.now() < warmUntil; index++) {
    await timedRun(subject, warmSize);
    if (index >= 500) break;
  }
  const counted = await countedRun(subject, steps);
  const { milliseconds: first, retainedBytesPerStep } = counted;
  const gc = gcClock();
  const timedFrom = performance.now();
  const sampleOf = (durations: readonly number[]): LoopSample => {
    const dropped = subject.dropped?.() ?? 0;
    const perStep = (milliseconds: number) => (milliseconds * 1000) / steps;
    const mean = durations.reduce((sum, duration) => sum + duration, 0) / durations.length;
    return {
      subject: key,
      name: subject.name,
      kind: subject.kind,
      steps,
      microsecondsPerStep: durations.length === 0 ? Number.NaN : perStep(median(durations)),
      meanMicrosecondsPerStep: perStep(mean),
      // Over every timed run, the first (fully collected before and after) included.
      gcShare: (counted.gcMilliseconds + gc.read()) / (first + performance.now() - timedFrom),
      retainedBytesPerStep,
      runs: durations.length,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      ...(dropped === 0 ? {} : { dropped }),
    };
  };
  // Once the subject's tracing client drops work, its times are not those of a tracer that keeps
  // up: the cell stops there and says so.
  let latest: readonly number[] = [first];
  const watch = setInterval(() => {
    if ((subject.dropped?.() ?? 0) === 0) return;
    process.stdout.write(`${JSON.stringify(sampleOf(latest))}\n`);
    process.exit(0);
  }, 100);
  process.stdout.write(`${JSON.stringify(sampleOf(latest))}\n`);
  const durations: number[] = [];
  const until = performance.now() + budgetMs;
  // A run slower than the whole budget is measured once (the slowest peers at N = 1,000).
  while (
    first <= budgetMs &&
    (durations.length < 3 || (performance.now() < until && durations.length < 2000))
  ) {
    durations.push(await timedRun(subject, steps));
    latest = durations;
    process.stdout.write(`${JSON.stringify(sampleOf(durations))}\n`);
  }
  if (durations.length === 0) durations.push(first);
  clearInterval(watch);
  await subject.close?.();
  const sample = sampleOf(durations);
  process.stdout.write(`${JSON.stringify(sample)}\n`);
  return sample;
}
