/** Small timing and formatting helpers shared by the benchmarks. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds `work` takes. */
export async function timeIt(work: () => unknown): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * Runs each task once per round, the tasks taking turns (A B C A B C …), and returns each task's
 * median milliseconds. Taking turns means a noisy moment on the machine hits every task alike,
 * which keeps the ratios between them steady even when the absolute times drift.
 */
export async function interleaved<Name extends string>(
  tasks: Record<Name, () => unknown>,
  rounds: number,
  /** Work after a task's timed part, not timed (removing the file it wrote). */
  after: Partial<Record<Name, () => unknown>> = {},
): Promise<Record<Name, number>> {
  const names = Object.keys(tasks) as Name[];
  const times = new Map<Name, number[]>(names.map(name => [name, []]));
  const timed = async (name: Name) => {
    const milliseconds = await timeIt(tasks[name]);
    await after[name]?.();
    return milliseconds;
  };
  for (const name of names) await timed(name); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const name of names) times.get(name)!.push(await timed(name));
  }
  return Object.fromEntries(names.map(name => [name, median(times.get(name)!)])) as Record<
    Name,
    number
  >;
}

/**
 * A cell stopped at its cap: how long it ran or how much memory it held, and the last JSON line it
 * printed before (what it had reached), if any.
 */
export class CappedCell extends Error {
  readonly cap: string;
  readonly reached: unknown;

  constructor(what: string, cap: string, reached: unknown) {
    super(`${what}: capped at ${cap}`);
    this.cap = cap;
    this.reached = reached;
  }
}

/** A process's resident memory now, in MB (Linux), or 0 when it cannot be read. */
function rssMb(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The last line of the output that is JSON, parsed, or undefined. */
function lastJson(output: string): unknown {
  const last = output.trim().split('\n').at(-1) ?? '';
  try {
    return last === '' ? undefined : (JSON.parse(last) as unknown);
  } catch {
    return undefined;
  }
}

/**
 * Runs a worker in a process of its own and returns the JSON it prints last: a TypeScript one
 * through tsx, a `.mjs` one with plain node. A worker still running after `timeoutMs`, or holding
 * more than `memoryMb` of resident memory, is killed and the call fails with a {@link CappedCell}
 * carrying what it last printed: a cell never holds the benchmark up.
 */
export async function runWorker<Result>(
  script: string,
  args: readonly string[],
  timeoutMs = 10 * 60_000,
  memoryMb = Number.POSITIVE_INFINITY,
  node = process.execPath,
): Promise<Result> {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(node, [...loader, script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  let capped: string | undefined;
  const stop = (cap: string): void => {
    capped ??= cap;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(() => stop(`${timeoutMs / 1000} s`), timeoutMs);
  const watch = Number.isFinite(memoryMb)
    ? setInterval(() => {
        const held = rssMb(child.pid);
        if (held > memoryMb) stop(`${memoryMb} MB (held ${held.toFixed(0)} MB)`);
      }, 250)
    : undefined;
  const code = await new Promise<number | null>(resolve => child.on('close', resolve));
  clearTimeout(timer);
  clearInterval(watch);
  const what = `${script} ${args.join(' ')}`;
  if (capped !== undefined) throw new CappedCell(what, capped, lastJson(output));
  const result = lastJson(output);
  if (code !== 0 || result === undefined) throw new Error(`${what} failed (exit ${code}).`);
  return result as Result;
}

/** Formats a table of rows (first row = header): the first column left-aligned, the rest right. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map(row => row[column]!.length)));
  return rows
    .map(row =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
        )
        .join('  '),
    )
    .join('\n');
}

/** `value` with one decimal below 100 and none above. */
export const figure = (value: number): string =>
  value >= 100 ? value.toFixed(0) : value.toFixed(1);

/** A ratio as `0.42×`. */
export const ratio = (value: number): string => `${value.toFixed(2)}×`;
