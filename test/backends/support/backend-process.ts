/**
 * A backend the tests start as a process of their own: on 127.0.0.1 only, on free ports, with a
 * temporary folder for its storage and log, waited for until it answers, and stopped (then
 * killed if it lingers) by the test that started it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The path a backend's script prints: it builds or installs the backend once per machine. */
export function backendProgram(script: 'jaeger' | 'phoenix'): string {
  return execFileSync('bash', [join(root, 'scripts/backends', `${script}.sh`)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

/** `count` ports free on 127.0.0.1 now, each asked of the system by listening on port 0. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map(server => (server.address() as { port: number }).port);
  await Promise.all(servers.map(server => new Promise(resolve => server.close(resolve))));
  return ports;
}

/** A backend process that is running. */
export interface BackendProcess {
  /** Its temporary folder (storage, configuration, log). */
  readonly folder: string;
  /** What it has written to stdout and stderr so far. */
  log(): string;
  /** Stops it: SIGTERM, then SIGKILL after 10 s; removes its folder. */
  stop(): Promise<void>;
}

/** How to start one backend, and how to tell it is ready. */
export interface BackendStart {
  readonly name: string;
  readonly program: string;
  readonly args: (folder: string) => readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** An environment variable the backend reads its working folder from: set to the temporary one. */
  readonly workingDirEnv?: string;
  /** Resolves true once the backend answers (polled every 200 ms). */
  readonly ready: () => Promise<boolean>;
  /** @defaultValue 60 s */
  readonly readyWithinMs?: number;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise(resolve => child.once('exit', () => resolve()));
}

/** Starts a backend and waits until it is ready; throws with its log when it is not. */
export async function startBackend(start: BackendStart): Promise<BackendProcess> {
  const folder = mkdtempSync(join(tmpdir(), `agent-trace-${start.name}-`));
  const logFile = join(folder, 'backend.log');
  const out = openSync(logFile, 'a');
  const child = spawn(start.program, start.args(folder), {
    cwd: folder,
    env: {
      ...process.env,
      ...start.env,
      ...(start.workingDirEnv === undefined ? {} : { [start.workingDirEnv]: folder }),
    },
    stdio: ['ignore', out, out],
  });
  const log = () => readFileSync(logFile, 'utf8');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(killer);
    }
    rmSync(folder, { recursive: true, force: true });
  };
  const deadline = Date.now() + (start.readyWithinMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await start.ready().catch(() => false)) return { folder, log, stop };
    await new Promise(resolve => setTimeout(resolve, 200));
  }
  const said = log();
  await stop();
  throw new Error(`${start.name} did not become ready (exit ${String(child.exitCode)}):\n${said}`);
}
