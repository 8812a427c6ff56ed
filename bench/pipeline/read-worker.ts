/**
 * Reads a (large) trace with `readTrace` in a process of its own and reports its RSS: before
 * reading (runtime and modules loaded) and at its peak. Usage: tsx read-worker.ts <trace>
 */
import { statSync } from 'node:fs';
import { readTrace } from '@agent-trace/trace';

/** What the worker reports. */
export interface ReadSample {
  bytes: number;
  events: number;
  milliseconds: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

const [file = ''] = process.argv.slice(2);
const rssBeforeMb = process.memoryUsage.rss() / 2 ** 20;
const started = performance.now();
let events = 0;
for await (const event of readTrace(file)) if (event.seq >= 0) events++;
const sample: ReadSample = {
  bytes: statSync(file).size,
  events,
  milliseconds: performance.now() - started,
  rssBeforeMb,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
};
process.stdout.write(`${JSON.stringify(sample)}\n`);
