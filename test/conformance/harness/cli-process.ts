import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';

/** How a CLI process ended: its code (null when it had to be killed), what it printed, how long it took. */
export interface CliProcess {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** True when the process did not end by itself within the limit and was killed. */
  readonly killed: boolean;
}

/**
 * Runs `agent-trace` as a user's shell does, in its own process, and waits for it to end by
 * itself; past `limitMs` it is killed and reported so (a hang after the report is a failure).
 */
export function agentTraceProcess(
  args: readonly string[],
  limitMs = 30_000,
  env: Readonly<Record<string, string>> = {},
  /** Another user to run as (the test runs as root): its ids; its home is the temporary folder. */
  user?: { readonly uid: number; readonly gid: number },
): Promise<CliProcess> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/cli/src/bin/agent-trace.ts', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...env,
        ...(user === undefined ? {} : { HOME: tmpdir() }),
        CI: 'true',
        NO_COLOR: '1',
      },
      ...user,
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, limitMs);
  return new Promise(resolve =>
    child.on('close', code => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started, killed });
    }),
  );
}
