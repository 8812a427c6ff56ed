/** Small timing helpers shared by the benchmarks. */

/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds `work` takes. */
export async function timeIt(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * Runs `task` `warmups` times unmeasured, then `samples` times, and returns what each measured
 * run reported (a task times only its own critical part, with {@link timeIt}).
 */
export async function sample(
  task: () => Promise<number>,
  { warmups, samples }: { warmups: number; samples: number },
): Promise<number[]> {
  for (let index = 0; index < warmups; index++) await task();
  const durations: number[] = [];
  for (let index = 0; index < samples; index++) durations.push(await task());
  return durations;
}

/** Formats a table of rows (first row = header) with aligned columns. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map(row => row[column]!.length)));
  return rows
    .map(row => row.map((cell, column) => cell.padStart(widths[column]!)).join('  '))
    .join('\n');
}
