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
    interrupt,
    ...(process.stderr.isTTY
      ? {
          progress: (line: string | undefined) => process.stderr.write(`\r\u001b[2K${line ?? ''}`),
        }
      : {}),
  };
}

/** The first Ctrl-C stops the command cleanly; a second ends the process at once. */
function interrupt(): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(
      '\nStopping: finished work is kept and running runs are sealed. Ctrl-C again to quit at once.\n',
    );
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  return { signal: controller.signal, release: () => process.off('SIGINT', onSignal) };
}
