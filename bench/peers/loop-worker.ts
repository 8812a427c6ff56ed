/**
 * Measures one subject at one N in a process of its own, so that peak RSS is the subject's and
 * no framework warms the JIT or fills the heap for another. Prints one JSON line.
 * Usage: tsx bench/peers/loop-worker.ts <subject> <steps> [budgetMs]
 */
import { median, timeIt } from '../measure.js';
import { isSubjectKey, subjects } from './registry.js';

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
}

const [key = '', stepsText = '', budgetText = '3000'] = process.argv.slice(2);
if (!isSubjectKey(key)) throw new Error(`Unknown subject '${key}'.`);
const steps = Number(stepsText);
const budgetMs = Number(budgetText);
const subject = await subjects[key]();

async function timedRun(size: number): Promise<number> {
  const prepared = await subject.prepare(size);
  const milliseconds = await timeIt(() => prepared.run());
  await prepared.finish();
  return milliseconds;
}

// Warm-up: the JIT sees every path at a small size, then once at the measured size.
const warmSize = Math.min(steps, 50);
const warmUntil = performance.now() + Math.min(1500, budgetMs / 2);
for (let index = 0; index < 3 || performance.now() < warmUntil; index++) {
  await timedRun(warmSize);
  if (index >= 500) break;
}
/** The sample so far, printed after every run: a cell stopped at its cap reports what it reached. */
const sampleOf = (durations: readonly number[]): LoopSample => ({
  subject: key,
  name: subject.name,
  kind: subject.kind,
  steps,
  microsecondsPerStep: (median(durations) * 1000) / steps,
  runs: durations.length,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
});
const first = await timedRun(steps);
process.stdout.write(`${JSON.stringify(sampleOf([first]))}\n`);
const durations: number[] = [];
const until = performance.now() + budgetMs;
while (durations.length < 3 || (performance.now() < until && durations.length < 2000)) {
  // A run slower than the whole budget is measured three times at most (the slowest peers at N=1,000).
  if (durations.length >= 3 && first > budgetMs) break;
  durations.push(await timedRun(steps));
  process.stdout.write(`${JSON.stringify(sampleOf(durations))}\n`);
}
await subject.close?.();
process.stdout.write(`${JSON.stringify(sampleOf(durations))}\n`);
