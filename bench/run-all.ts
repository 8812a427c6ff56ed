/**
 * `pnpm bench`: runs every benchmark, prints the tables and writes bench/results/latest.json.
 * Not part of the test suite: numbers, not assertions.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { formatLoopOverhead, measureLoopOverhead } from './loop-overhead.js';
import { formatStepFlatness, measureStepFlatness } from './step-flatness.js';

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`agent-trace benchmarks — ${machine}\n`);

console.log('Loop overhead: FakeLLM calls `add` N−1 times, then answers (median µs per step)');
await measureLoopOverhead([10, 100]); // warm the JIT on every path before measuring
const loop = await measureLoopOverhead();
console.log(formatLoopOverhead(loop));

console.log('\nStep time inside one 1,000-step run, no sink (median µs between model calls)');
const flatness = await measureStepFlatness();
console.log(formatStepFlatness(flatness));

mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/latest.json',
  `${JSON.stringify({ machine, date: new Date().toISOString(), loop, flatness }, null, 2)}\n`,
);
console.log('\nWritten to bench/results/latest.json');
