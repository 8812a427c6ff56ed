import { plural } from '../render/plural.js';
import {
  evalGate,
  fileNameOf,
  type EvalDefinition,
  type EvalThreshold,
  type RunEvalOptions,
} from '@agent-trace/evals';
import {
  ExperimentStore,
  runExperiment,
  type ExperimentRun,
  type ExperimentSummary,
} from '@agent-trace/evals/experiments';
import { defined } from '@agent-trace/core/util';
import { exitCodes, type CommandResult } from './command-result.js';
import { progressLine } from './eval-progress.js';
import { importModule, loadErrorText } from './load-agent.js';

/** Exit code of a run stopped by Ctrl-C (128 + SIGINT), as shells give it. */
export const interruptedExitCode = 130;

/** What `agent-trace eval` takes besides its files. */
export interface EvalCommandOptions {
  readonly filter?: string;
  readonly trials?: number;
  readonly concurrency?: number;
  /** `i/n`. */
  readonly shard?: string;
  /**
   * The experiment's id: processes given the same one (shards) write one experiment. With several
   * eval files, each eval's experiment is `<id>.<eval>`.
   */
  readonly experiment?: string;
  /** The store's folder. */
  readonly store: string;
  /** Print each experiment's result (every case and score) as JSON. */
  readonly json: boolean;
  /** The mean each scorer must reach, over each definition's `threshold`. */
  readonly threshold?: EvalThreshold;
  /** Exit 0 even when a task threw (the failed runs are still named). */
  readonly allowFailed?: boolean;
  readonly env: NodeJS.ProcessEnv;
  /** Stops the run (Ctrl-C): finished cases are kept, running ones sealed as aborted. */
  readonly signal?: AbortSignal;
  /** Shows a progress line, or clears it (undefined); only on a terminal. */
  readonly progress?: (line: string | undefined) => void;
}

/**
 * Runs the evals that modules export by default (`defineEval(...)`) as experiments kept in the
 * store, and prints each one's means, cost and folder. Exit 0 when all ran and passed; 1 when a
 * task threw (unless `allowFailed`) or a scorer's mean is under its threshold, naming the cases;
 * 2 when an eval could not be loaded or run; 130 when stopped.
 */
export async function evalCommand(
  files: readonly string[],
  options: EvalCommandOptions,
): Promise<CommandResult> {
  const shard = shardOf(options.shard);
  if (typeof shard === 'string')
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: shard };
  const printed: string[] = [];
  const results: ExperimentRun['result'][] = [];
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const file of files) {
    const definition = await loadEval(file);
    if (typeof definition === 'string') return failed(printed, definition);
    let ran: ExperimentRun;
    try {
      ran = await runExperiment(definition, {
        root: options.store,
        env: options.env,
        ...defined('filter', options.filter),
        ...defined('trials', options.trials),
        ...defined('concurrency', options.concurrency),
        ...defined('shard', shard),
        ...defined('signal', options.signal),
        ...defined(
          'experiment',
          options.experiment === undefined || files.length === 1
            ? options.experiment
            : `${options.experiment}.${fileNameOf(definition.name)}`,
        ),
        onCase: (_result, { done, total }) =>
          options.progress?.(progressLine(definition.name, done, total)),
      });
    } catch (error) {
      options.progress?.(undefined);
      return failed(
        printed,
        `Eval '${definition.name}' (${file}) could not run: ${messageOf(error)}`,
      );
    }
    options.progress?.(undefined);
    results.push(ran.result);
    printed.push(summary(ran.experiment));
    const gate = evalGate(ran.result, options.threshold ?? definition.threshold);
    if (gate.failed !== undefined)
      (options.allowFailed === true ? warnings : problems).push(gate.failed);
    problems.push(...gate.below);
    if (ran.result.interrupted === true)
      return {
        exitCode: interruptedExitCode,
        stdout: output(printed, results, options.json),
        stderr: `Stopped: the finished cases of '${definition.name}' are kept, the running ones sealed as aborted.`,
      };
  }
  return {
    exitCode: problems.length === 0 ? exitCodes.ok : exitCodes.failed,
    stdout: output(printed, results, options.json),
    stderr: [
      ...warnings.map(warning => `warning: ${warning}`),
      ...problems.map(problem => `✗ ${problem}`),
    ].join('\n'),
  };
}

/** `agent-trace eval list`: the experiments kept, newest first. */
export async function evalListCommand(options: {
  readonly store: string;
  readonly eval?: string;
  readonly limit?: number;
  readonly json: boolean;
}): Promise<CommandResult> {
  let experiments: ExperimentSummary[];
  try {
    experiments = await new ExperimentStore({ root: options.store }).list({
      ...defined('eval', options.eval),
      ...defined('limit', options.limit),
    });
  } catch (error) {
    return failed([], `Cannot read the experiment store ${options.store}: ${messageOf(error)}`);
  }
  if (options.json)
    return { exitCode: exitCodes.ok, stdout: JSON.stringify(experiments, null, 2), stderr: '' };
  if (experiments.length === 0)
    return {
      exitCode: exitCodes.ok,
      stdout: `No experiments in ${options.store} yet: run one with agent-trace eval <file>.`,
      stderr: '',
    };
  return { exitCode: exitCodes.ok, stdout: experiments.map(listLine).join('\n'), stderr: '' };
}

function output(printed: readonly string[], results: readonly unknown[], json: boolean): string {
  return json ? JSON.stringify(results, null, 2) : printed.join('\n\n');
}

const failed = (printed: readonly string[], stderr: string): CommandResult => ({
  exitCode: exitCodes.unreadable,
  stdout: printed.join('\n\n'),
  stderr,
});

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** An eval module's default export, or what is wrong with the module. */
export async function loadEval(file: string): Promise<EvalDefinition | string> {
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
    return `Cannot load eval module '${file}': ${loadErrorText(error)}. Check the path and that the module runs on its own.`;
  }
}

/** `--shard i/n` as a shard, or what is wrong with it. */
export function shardOf(text: string | undefined): RunEvalOptions['shard'] | string | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const [index, count] = match === null ? [0, 0] : [Number(match[1]), Number(match[2])];
  if (index >= 1 && index <= count) return { index, count };
  return `Invalid --shard '${text}': expected i/n with 1 ≤ i ≤ n, e.g. --shard 1/2.`;
}

/** What an experiment cost, in words: the dollars, and how many calls had no price. */
export function costText({ costUsd, unpricedCalls }: ExperimentSummary): string {
  const dollars = `$${costUsd.toFixed(4)}`;
  return unpricedCalls === 0 ? dollars : `${dollars} + ${unpricedCalls} unpriced calls`;
}

function summary(experiment: ExperimentSummary): string {
  const scorers = Object.entries(experiment.means)
    .map(([name, mean]) => `${name} ${mean.toFixed(3)}`)
    .join('  ');
  const failedRuns = experiment.failed === 0 ? '' : `, ${experiment.failed} failed`;
  const tokens = (experiment.tokensIn + experiment.tokensOut).toLocaleString('en-US');
  const models = experiment.models.length === 0 ? '' : ` · ${experiment.models.join(', ')}`;
  return [
    `eval ${experiment.eval}: ${plural(experiment.runs, 'run')}${failedRuns} · experiment ${experiment.id} (${experiment.status})`,
    `  ${scorers}`,
    `  cost ${costText(experiment)} · ${tokens} tokens${models}`,
    `  ${experiment.folder}`,
  ].join('\n');
}

function listLine(experiment: ExperimentSummary): string {
  const { git } = experiment;
  const code = `${git.branch ?? '?'}@${git.commit?.slice(0, 7) ?? '?'}${git.dirty === true ? '+dirty' : ''}`;
  const scorers = Object.entries(experiment.means)
    .map(([name, mean]) => `${name} ${mean.toFixed(3)}`)
    .join(' ');
  return `${experiment.id}  ${experiment.eval}  ${experiment.status}  ${code}  ${plural(experiment.runs, 'run')}  ${scorers}  ${costText(experiment)}`;
}
