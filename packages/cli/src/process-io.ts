import { once } from 'node:events';
import type { CliIo } from './program.js';

/**
 * The CLI's io on this process: its stdout and stderr, environment and terminal. When stdout's
 * pipe is full, `stdout` returns a promise of its drain, which commands wait for, so a long output
 * is not held in memory.
 */
export function processIo(): CliIo {
  return {
    stdout: text => (process.stdout.write(`${text}\n`) ? undefined : once(process.stdout, 'drain')),
    stderr: text => process.stderr.write(`${text}\n`),
    env: process.env,
    isTTY: process.stdout.isTTY,
  };
}
