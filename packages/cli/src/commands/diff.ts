import { compareTraces, formatDivergence, type Divergence } from '@agent-trace/trace';
import type { TraceRun } from '@agent-trace/trace';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { TraceInput, unreadableTrace } from './trace-input.js';

/** Options of {@link diffCommand}. */
export interface DiffCommandOptions {
  readonly json: boolean;
  readonly style: Style;
}

/** How the n-th run of one file compares with the n-th run of the other. */
export interface RunComparison {
  /** 1-based: the runs are paired in the order they end in each file. */
  readonly index: number;
  /** The run id in the first file; undefined when only the second file has this run. */
  readonly first: string | undefined;
  readonly second: string | undefined;
  readonly differences: readonly Divergence[];
}

/**
 * `agent-trace diff <a> <b>`: what each run of `b` did differently from the run of `a` in the same
 * place (the n-th run to end in one file against the n-th in the other), step by step, ids and
 * times aside; an inserted step is reported once, not as a cascade. A run only one file has is a
 * difference. The files are read side by side, a run at a time. Exit 0 same, 1 different,
 * 2 unreadable.
 */
export async function diffCommand(
  first: string,
  second: string,
  options: DiffCommandOptions,
): Promise<CommandResult> {
  const inputs = [new TraceInput(first), new TraceInput(second)] as const;
  let comparisons: RunComparison[];
  try {
    comparisons = await compareRunByRun(inputs[0].runs(), inputs[1].runs());
  } catch (error) {
    const file = (error as { file?: unknown }).file;
    return unreadableTrace(error, typeof file === 'string' ? file : first);
  }
  const warnings = [...inputs[0].warnings, ...inputs[1].warnings].join('\n');
  const differing = comparisons.filter(comparison => comparison.differences.length > 0);
  const exitCode = differing.length === 0 ? exitCodes.ok : exitCodes.failed;
  if (options.json)
    return {
      exitCode,
      stdout: JSON.stringify(
        {
          first,
          second,
          same: differing.length === 0,
          runs: comparisons,
          differences: comparisons.flatMap(comparison => comparison.differences),
        },
        null,
        2,
      ),
      stderr: warnings,
    };
  const { style } = options;
  const runs = `${comparisons.length} run${comparisons.length === 1 ? '' : 's'}`;
  if (differing.length === 0)
    return {
      exitCode,
      stdout: `${style.green('✓')} ${first} and ${second}: same behaviour (${runs})`,
      stderr: warnings,
    };
  const lines =
    comparisons.length === 1
      ? []
      : [`${style.red('✗')} ${first} → ${second}: ${differing.length} of ${runs} differ`];
  for (const comparison of differing)
    lines.push(...describeRun(comparison, first, second, comparisons.length, style));
  return { exitCode, stdout: lines.join('\n'), stderr: warnings };
}

function describeRun(
  comparison: RunComparison,
  first: string,
  second: string,
  runs: number,
  style: Style,
): string[] {
  const count = comparison.differences.length;
  const which =
    runs === 1
      ? `${first} → ${second}`
      : `run ${comparison.index} (${comparison.first ?? 'none'} → ${comparison.second ?? 'none'})`;
  return [
    `${style.red('✗')} ${which}: ${count} difference${count === 1 ? '' : 's'} (seq numbers are those of ${second}; a missing step's, of ${first})`,
    ...comparison.differences.map(
      (difference, index) =>
        `${index + 1}. ${formatDivergence(difference).replace(/\n/g, '\n   ')}`,
    ),
  ];
}

/** Pairs the runs of two streams in order and compares each pair; only differences are kept. */
async function compareRunByRun(
  left: AsyncGenerator<TraceRun, void, undefined>,
  right: AsyncGenerator<TraceRun, void, undefined>,
): Promise<RunComparison[]> {
  const comparisons: RunComparison[] = [];
  for (let index = 1; ; index++) {
    const [a, b] = await Promise.all([left.next(), right.next()]);
    if (a.done === true && b.done === true) return comparisons;
    const expected = a.done === true ? [] : a.value.events;
    const actual = b.done === true ? [] : b.value.events;
    comparisons.push({
      index,
      first: a.done === true ? undefined : a.value.run,
      second: b.done === true ? undefined : b.value.run,
      differences: compareTraces(expected, actual),
    });
  }
}
