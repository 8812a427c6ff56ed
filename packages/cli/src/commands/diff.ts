import { compareTraces, formatDivergence } from '@agent-trace/testing';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { loadTrace } from './load-trace.js';

/** Options of {@link diffCommand}. */
export interface DiffCommandOptions {
  readonly json: boolean;
  readonly style: Style;
}

/**
 * `agent-trace diff <a> <b>`: what the first run of `b` did differently from the first run of
 * `a`, step by step, ids and times aside; an inserted step is reported once, not as a cascade.
 * Exit 0 same, 1 different, 2 unreadable.
 */
export async function diffCommand(
  first: string,
  second: string,
  options: DiffCommandOptions,
): Promise<CommandResult> {
  const [left, right] = await Promise.all([loadTrace(first), loadTrace(second)]);
  for (const loaded of [left, right]) {
    if (!loaded.ok) return { exitCode: exitCodes.unreadable, stdout: '', stderr: loaded.message };
  }
  if (!left.ok || !right.ok) return { exitCode: exitCodes.unreadable, stdout: '', stderr: '' };
  const firstRun = (events: typeof left.events) =>
    events.filter(event => event.run === events[0]?.run);
  const differences = compareTraces(firstRun(left.events), firstRun(right.events));
  const exitCode = differences.length === 0 ? exitCodes.ok : exitCodes.failed;
  if (options.json)
    return {
      exitCode,
      stdout: JSON.stringify(
        { first, second, same: differences.length === 0, differences },
        null,
        2,
      ),
      stderr: '',
    };
  if (differences.length === 0)
    return {
      exitCode,
      stdout: `${options.style.green('✓')} ${first} and ${second}: same behaviour`,
      stderr: '',
    };
  const lines = [
    `${options.style.red('✗')} ${first} → ${second}: ${differences.length} difference${differences.length === 1 ? '' : 's'} (seq numbers are those of ${second}; a missing step's, of ${first})`,
    ...differences.map(
      (difference, index) =>
        `${index + 1}. ${formatDivergence(difference).replace(/\n/g, '\n   ')}`,
    ),
  ];
  return { exitCode, stdout: lines.join('\n'), stderr: '' };
}
