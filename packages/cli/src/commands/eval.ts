import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compareEvals,
  fileNameOf,
  runEval,
  type EvalDefinition,
  type EvalResult,
  type RunEvalOptions,
} from '@agent-trace/evals';
import { exitCodes, type CommandResult } from './command-result.js';
import { importModule } from './load-agent.js';

/** What `agent-trace eval` takes besides its files. */
export interface EvalCommandOptions {
  readonly filter?: string;
  readonly trials?: number;
  readonly concurrency?: number;
  /** `i/n`. */
  readonly shard?: string;
  /** Where experiments go: `<out>/<eval>/<time>/` with `result.json` and `traces/`. */
  readonly out: string;
  readonly now: () => Date;
}

/**
 * Runs the evals that modules export by default (`defineEval(...)`), writes each experiment's
 * result and traces, and prints each scorer's mean. Exit 0 when all ran, 2 when one could not.
 */
export async function evalCommand(
  files: readonly string[],
  options: EvalCommandOptions,
): Promise<CommandResult> {
  const shard = shardOf(options.shard);
  if (typeof shard === 'string')
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: shard };
  const lines: string[] = [];
  for (const file of files) {
    const definition = await loadEval(file);
    if (typeof definition === 'string')
      return { exitCode: exitCodes.unreadable, stdout: lines.join('\n'), stderr: definition };
    const folder = join(options.out, fileNameOf(definition.name), stamp(options.now()));
    const runOptions: RunEvalOptions = {
      traceDir: join(folder, 'traces'),
      ...(options.filter === undefined ? {} : { filter: options.filter }),
      ...(options.trials === undefined ? {} : { trials: options.trials }),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(shard === undefined ? {} : { shard }),
    };
    const result = await runEval(definition, runOptions);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'result.json'), `${JSON.stringify(result, null, 2)}\n`);
    lines.push(summary(result, join(folder, 'result.json')));
  }
  return { exitCode: exitCodes.ok, stdout: lines.join('\n\n'), stderr: '' };
}

/**
 * Compares two experiments' `result.json`: per scorer the means and the difference with its 95%
 * interval, the regressed cases with why, and the flaky ones. With `failOnRegression`, exit 1 when
 * a case regressed past the tolerance.
 */
export function evalCompareCommand(
  baselineFile: string,
  candidateFile: string,
  options: { readonly failOnRegression?: number; readonly json: boolean },
): CommandResult {
  const read = (file: string): EvalResult | string => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as EvalResult;
    } catch (error) {
      return `Cannot read experiment '${file}': ${error instanceof Error ? error.message : String(error)}. Give the result.json an 'agent-trace eval' run wrote.`;
    }
  };
  const baseline = read(baselineFile);
  const candidate = read(candidateFile);
  for (const each of [baseline, candidate])
    if (typeof each === 'string')
      return { exitCode: exitCodes.unreadable, stdout: '', stderr: each };
  const comparison = compareEvals(baseline as EvalResult, candidate as EvalResult, {
    tolerance: options.failOnRegression ?? 0,
  });
  const failed = options.failOnRegression !== undefined && comparison.regressed;
  const stdout = options.json
    ? JSON.stringify(comparison, null, 2)
    : describeComparison(comparison);
  return { exitCode: failed ? exitCodes.failed : exitCodes.ok, stdout, stderr: '' };
}

function describeComparison(comparison: ReturnType<typeof compareEvals>): string {
  const lines: string[] = [];
  for (const each of comparison.scorers) {
    const [low, high] = each.interval;
    lines.push(
      `${each.scorer}: ${each.baseline.toFixed(3)} → ${each.candidate.toFixed(3)} (${signed(each.difference)}, 95% ${signed(low)} to ${signed(high)})`,
    );
    for (const change of each.regressed)
      lines.push(
        `  regressed ${change.id}: ${change.baseline} → ${change.candidate} (${change.reason})`,
      );
    for (const change of each.improved)
      lines.push(`  improved ${change.id}: ${change.baseline} → ${change.candidate}`);
  }
  for (const flaky of comparison.flaky)
    lines.push(`flaky ${flaky.id} (${flaky.scorer}): trials scored ${flaky.scores.join(', ')}`);
  if (comparison.unpaired.length > 0)
    lines.push(`only in one experiment: ${comparison.unpaired.join(', ')}`);
  return lines.join('\n');
}

async function loadEval(file: string): Promise<EvalDefinition | string> {
  try {
    const module = await importModule(file);
    const exported = module.default as Partial<EvalDefinition> | undefined;
    if (
      exported?.name !== undefined &&
      exported.task !== undefined &&
      Array.isArray(exported.scorers)
    )
      return exported as EvalDefinition;
    return `Eval module '${file}' has no default export that is an eval. Export one: export default defineEval({ name, data, task, scorers }).`;
  } catch (error) {
    return `Cannot load eval module '${file}': ${error instanceof Error ? error.message : String(error)}.`;
  }
}

function shardOf(text: string | undefined): RunEvalOptions['shard'] | string | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const [index, count] = match === null ? [0, 0] : [Number(match[1]), Number(match[2])];
  if (index >= 1 && index <= count) return { index, count };
  return `Invalid --shard '${text}': expected i/n with 1 ≤ i ≤ n, e.g. --shard 1/2.`;
}

function summary(result: EvalResult, file: string): string {
  const scorers = Object.entries(result.means)
    .map(([name, mean]) => `${name} ${mean.toFixed(3)}`)
    .join('  ');
  const failed = result.cases.filter(each => each.error !== undefined).length;
  return `eval ${result.name}: ${result.cases.length} runs${failed === 0 ? '' : `, ${failed} failed`}\n  ${scorers}\n  ${file}`;
}

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;
const stamp = (date: Date) => date.toISOString().replace(/[:.]/g, '-');
