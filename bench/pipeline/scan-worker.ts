/**
 * The floor of reading a trace whole: every 4 MiB chunk read, split into lines, each line parsed
 * (what the served viewer's outline must do at the least). Prints its time and peak RSS.
 * Usage: scan-worker.ts <trace.jsonl>
 */
import { closeSync, openSync, readSync } from 'node:fs';

const [file] = process.argv.slice(2) as [string];
const started = performance.now();
const descriptor = openSync(file, 'r');
const buffer = Buffer.alloc(4 * 2 ** 20);
let carry = '';
let lines = 0;
for (let read = readSync(descriptor, buffer); read > 0; read = readSync(descriptor, buffer)) {
  const text = carry + buffer.toString('utf8', 0, read);
  const parts = text.split('\n');
  carry = parts.pop() ?? '';
  for (const line of parts) if (line !== '' && JSON.parse(line) !== null) lines++;
}
closeSync(descriptor);
console.log(
  JSON.stringify({
    milliseconds: performance.now() - started,
    lines,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
