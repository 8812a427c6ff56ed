/**
 * How a cell measures one subject at one N, shared by the loop and wire workers: a warm-up at a
 * small size, then timed runs for `budgetMs`, the sample so far printed as a JSON line after every
 * run (a cell stopped at its cap reports what it reached).
 */
import { median, timeIt } from '../measure.js';
import type { Subject } from './subject.js';

/** What one worker reports. */
export interface LoopSample {
  subject: string;
  name: string;
  kind: 'agent-trace' | 'peer';
  steps: number;
  microsecondsPerStep: number;
  runs: number;
  peakRssMb: number;
  /** Set when the cell was stopped at its cap: what it reached is what the numbers are. */
  capped?: string;
  /** Work the subject's tracing client dropped (runs LangSmith's full queue threw away). */
  dropped?: number;
}

/** Measures `subject` at `steps` for about `budgetMs`, printing its sample after every run. */
export async function measureCell(
  key: string,
  subject: Subject,
  steps: number,
  budgetMs: number,
): Promise<LoopSample> {
  const timedRun = async (size: number): Promise<number> => {
    const prepared = await subject.prepare(size);
    const milliseconds = await timeIt(() => prepared.run());
    await prepared.finish();
    return milliseconds;
  };
  // Warm-up: the JIT sees every path at a small size, then once at the measured size.
  const warmSize = Math.min(steps, 50);
  const warmUntil = performance.now() + Math.min(1500, budgetMs / 2);
  for (let index = 0; index < 3 || performance.now() < warmUntil; index++) {
    await timedRun(warmSize);
    if (index >= 500) break;
  }
  const sampleOf = (durations: readonly number[]): LoopSample => {
    const dropped = subject.dropped?.() ?? 0;
    return {
      subject: key,
      name: subject.name,
      kind: subject.kind,
      steps,
      microsecondsPerStep: durations.length === 0 ? Number.NaN : (median(durations) * 1000) / steps,
      runs: durations.length,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      ...(dropped === 0 ? {} : { dropped }),
    };
  };
  // Once the subject's tracing client drops work, its times are not those of a tracer that keeps
  // up: the cell stops there and says so.
  let latest: readonly number[] = [];
  const watch = setInterval(() => {
    if ((subject.dropped?.() ?? 0) === 0) return;
    process.stdout.write(`${JSON.stringify(sampleOf(latest))}\n`);
    process.exit(0);
  }, 100);
  const first = await timedRun(steps);
  latest = [first];
  process.stdout.write(`${JSON.stringify(sampleOf(latest))}\n`);
  const durations: number[] = [];
  const until = performance.now() + budgetMs;
  // A run slower than the whole budget is measured once (the slowest peers at N = 1,000).
  while (
    first <= budgetMs &&
    (durations.length < 3 || (performance.now() < until && durations.length < 2000))
  ) {
    durations.push(await timedRun(steps));
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
