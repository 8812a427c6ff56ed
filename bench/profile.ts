/**
 * `pnpm bench:profile [jsonl|bare|mcp] [seconds]`: runs a workload (compiled, as the bench's cells
 * run) under `node --cpu-prof` and prints where its time goes (self time by function). The profile
 * is kept in bench/results/profiles/ for Chrome DevTools or speedscope.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { compiledWorker } from './compiled.js';
import { formatProfile, summarizeProfile } from './profile/summarize.js';

const [name = 'jsonl', seconds = '8'] = process.argv.slice(2);
const directory = 'bench/results/profiles';
const scratch = join(directory, `.${name}`);
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
const result = spawnSync(
  process.execPath,
  [
    '--cpu-prof',
    `--cpu-prof-dir=${scratch}`,
    '--cpu-prof-interval=100',
    await compiledWorker('bench/profile/workload.ts'),
    name,
    seconds,
  ],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);
if (result.status !== 0) throw new Error(`The ${name} workload failed (exit ${result.status}).`);
const [profile] = readdirSync(scratch).filter(file => file.endsWith('.cpuprofile'));
if (profile === undefined) throw new Error('No profile was written.');
const kept = join(directory, `${name}.cpuprofile`);
renameSync(join(scratch, profile), kept);
rmSync(scratch, { recursive: true, force: true });
console.log(`Self time of the ${name} workload (${kept}):`);
console.log(formatProfile(summarizeProfile(kept), 30));
