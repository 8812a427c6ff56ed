import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AgentTraceError, type TraceEvent } from '@agent-trace/core';
import { lineDiff } from './line-diff.js';
import { normalizeTrace } from './normalize-trace.js';

/** A trace that does not match its golden file, or whose golden file is missing. */
export class GoldenTraceMismatchError extends AgentTraceError {
  readonly file: string;

  constructor(file: string, message: string) {
    super({ message });
    this.name = 'GoldenTraceMismatchError';
    this.file = file;
  }
}

/** Options of {@link compareGoldenTrace}. */
export interface GoldenTraceOptions {
  /** Where golden files live. @defaultValue `golden/` in the working directory */
  directory?: string;
  /**
   * Write the golden file instead of comparing. Never in CI (`CI` set), even when asked: there a
   * missing or different golden file fails. @defaultValue true when `UPDATE_GOLDEN=1`
   */
  update?: boolean;
}

/** What {@link compareGoldenTrace} did. */
export type GoldenTraceOutcome = 'matched' | 'written';

/**
 * Compares a trace, normalised, with `golden/<name>.jsonl`. Writes the file instead when asked to
 * update (`UPDATE_GOLDEN=1`); in CI a missing or different golden file is always a failure, with
 * a line-aligned diff of the two normalised traces.
 */
export function compareGoldenTrace(
  name: string,
  events: readonly TraceEvent[],
  options: GoldenTraceOptions = {},
): GoldenTraceOutcome {
  const { directory = 'golden' } = options;
  const update = !inCI() && (options.update ?? process.env.UPDATE_GOLDEN === '1');
  const file = join(directory, `${name}.jsonl`);
  const lines = normalizeTrace(events).map(event => JSON.stringify(event));
  if (update) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${lines.join('\n')}\n`);
    return 'written';
  }
  if (!existsSync(file)) {
    throw new GoldenTraceMismatchError(
      file,
      `Golden trace '${name}' does not exist (${file}). Run the test with UPDATE_GOLDEN=1 to write it, check it, and commit it.`,
    );
  }
  const expected = readFileSync(file, 'utf8').trimEnd().split('\n');
  if (expected.length === lines.length && expected.every((line, index) => line === lines[index])) return 'matched';
  throw new GoldenTraceMismatchError(
    file,
    `Trace differs from golden trace '${name}' (${file}); - expected, + actual:\n${lineDiff(expected, lines)}\nIf the change is intended, run the test with UPDATE_GOLDEN=1 and commit the new file.`,
  );
}

/** True when the `CI` environment variable says this is a CI run. */
function inCI(): boolean {
  const value = process.env.CI;
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}
