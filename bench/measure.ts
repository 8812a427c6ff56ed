/** Small timing and formatting helpers shared by the benchmarks. */
import { spawn } from 'node:child_process';

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
): Promise<Record<Name, number>> {
  const names = Object.keys(tasks) as Name[];
  const times = new Map<Name, number[]>(names.map(name => [name, []]));
  for (const name of names) await timeIt(tasks[name]); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const name of names) times.get(name)!.push(await timeIt(tasks[name]));
  }
  return Object.fromEntries(names.map(name => [name, median(times.get(name)!)])) as Record<
    Name,
    number
  >;
}

/**
 * Runs a worker in a process of its own and returns the JSON it prints last: a TypeScript one
 * through tsx, a `.mjs` one with plain node. A worker still running after `timeoutMs` is killed
 * and the call fails, saying so: a cell never holds the benchmark up.
 */
export async function runWorker<Result>(
  script: string,
  args: readonly string[],
  timeoutMs = 10 * 60_000,
): Promise<Result> {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  let capped = false;
  const cap = setTimeout(() => {
    capped = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>(resolve => child.on('close', resolve));
  clearTimeout(cap);
  if (capped)
    throw new Error(`${script} ${args.join(' ')} ran past its ${timeoutMs / 1000} s cap.`);
  const last = output.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || last === '')
    throw new Error(`${script} ${args.join(' ')} failed (exit ${code}).`);
  return JSON.parse(last) as Result;
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
