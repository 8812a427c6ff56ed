/**
 * `pnpm bench:profile [jsonl|bare|mcp] [seconds]`: runs a workload under `node --cpu-prof` and
 * prints where its time goes (self time by function). The profile file is kept in
 * bench/results/profiles/ for Chrome DevTools or speedscope.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
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
    '--import',
    'tsx',
    'bench/profile/workload.ts',
    name,
    seconds,
  ],
  { stdio: ['ignore', 'inherit', 'inherit'] },
);
if (result.status !== 0) throw new Error(`The ${name} workload failed (exit ${result.status}).`);
// tsx may start a second process; the workload's profile is the largest.
const profiles = readdirSync(scratch).filter(file => file.endsWith('.cpuprofile'));
const rows = profiles
  .map(file => ({ file, rows: summarizeProfile(join(scratch, file)) }))
  .sort((left, right) => right.rows.length - left.rows.length)[0];
if (rows === undefined) throw new Error('No profile was written.');
const kept = join(directory, `${name}.cpuprofile`);
renameSync(join(scratch, rows.file), kept);
rmSync(scratch, { recursive: true, force: true });
console.log(`Self time of the ${name} workload (${kept}):`);
console.log(formatProfile(rows.rows, 30));
