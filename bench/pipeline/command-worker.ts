/**
 * Runs one `agent-trace` command in a process of its own, its output thrown away, and reports its
 * peak RSS. Usage: node command-worker.mjs <command> <args…>
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { runCli } from '@agent-trace/cli';

/** What the worker reports. */
export interface CommandSample {
  command: string;
  exitCode: number;
  milliseconds: number;
  outputMb: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

const args = process.argv.slice(2);
const sink = openSync('/dev/null', 'w');
let written = 0;
const rssBeforeMb = process.memoryUsage.rss() / 2 ** 20;
const started = performance.now();
const exitCode = await runCli(args, {
  stdout: text => {
    written += text.length + 1;
    writeSync(sink, `${text}\n`);
  },
  stderr: text => process.stderr.write(`${text}\n`),
  env: {},
  isTTY: false,
});
closeSync(sink);
const sample: CommandSample = {
  command: args[0] ?? '',
  exitCode,
  milliseconds: performance.now() - started,
  outputMb: written / 2 ** 20,
  rssBeforeMb,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
};
process.stdout.write(`${JSON.stringify(sample)}\n`);
