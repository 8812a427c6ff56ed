import type { AnyAgent, RunOptions, RunResult } from '@agent-trace/core';
import type { EvalThreshold } from './eval-gate.js';
import type { EvalCase, Scorer } from './scorer.js';

/** What a task is given besides the input: the options its runs take, so the case's trace is kept. */
export interface TaskContext<Input = unknown, Expected = unknown> {
  /**
   * Pass these to every `run()` of the case (spread your own over them): they carry the case's
   * trace sinks and session, and the experiment's shared budget, rate limits or cache.
   */
  readonly runOptions: RunOptions;
  readonly case: EvalCase<Input, Expected>;
  /** 1-based. */
  readonly trial: number;
}

/**
 * What a case runs: an agent (given the input as text), or a function of the input that runs
 * agents with the context's `runOptions` and returns the output (or the `RunResult` itself).
 */
export type EvalTask<Input = unknown, Expected = unknown, Output = unknown> =
  | AnyAgent
  | ((
      input: Input,
      context: TaskContext<Input, Expected>,
    ) => Output | RunResult<Output> | Promise<Output | RunResult<Output>>);

/** An eval: a dataset, the task each case runs, and how its runs are scored. */
export interface EvalDefinition<Input = unknown, Expected = unknown, Output = unknown> {
  readonly name: string;
  /**
   * The cases; a data file of them (`.jsonl`, `.json`, `.yaml`, `.csv`; see `loadCases`); or a
   * function that loads them.
   */
  readonly data:
    | readonly EvalCase<Input, Expected>[]
    | string
    | (() => readonly EvalCase<Input, Expected>[] | Promise<readonly EvalCase<Input, Expected>[]>);
  readonly task: EvalTask<Input, Expected, Output>;
  readonly scorers: readonly Scorer<Input, Expected, Output>[];
  /** Runs of each case. @defaultValue 1 */
  readonly trials?: number;
  /** Cases run at once. @defaultValue 4 */
  readonly concurrency?: number;
  /**
   * Options every case's runs take (and a judge's): a shared `budget` or `rateLimits` over the
   * whole experiment, a `cache`, prices. `runEval`'s own `runOptions` go over these.
   */
  readonly runOptions?: RunOptions;
  /**
   * What names the task's configuration in an experiment (prompts, model ids, settings), hashed
   * into its `configHash`. @defaultValue the agent's own configuration, or a function task's source
   */
  readonly config?: unknown;
  /**
   * The mean score each scorer must reach (0 to 1): one for all, or by scorer name. Under it,
   * `agent-trace eval` names the cases under it and exits 1, and `describeEval` fails that
   * scorer's test. @defaultValue none for `agent-trace eval`; 1 for `describeEval`
   */
  readonly threshold?: EvalThreshold;
}

/**
 * Defines an eval, checked: a name, data, a task and at least one scorer with a name of its own.
 *
 * @example
 * ```ts
 * export default defineEval({
 *   name: 'refunds',
 *   data: [{ input: 'Refund order 42', expected: { trajectory: [{ tool: 'refund' }] } }],
 *   task: desk,
 *   scorers: [trajectoryMatch(undefined, { args: 'ignore' }), stopReasonIs('completed')],
 * });
 * ```
 */
export function defineEval<Input = unknown, Expected = unknown, Output = unknown>(
  definition: EvalDefinition<Input, Expected, Output>,
): EvalDefinition<Input, Expected, Output> {
  const problem = problemOf(definition as EvalDefinition);
  if (problem !== undefined) throw new TypeError(`defineEval: ${problem}`);
  return definition;
}

function problemOf(definition: EvalDefinition): string | undefined {
  if (typeof definition.name !== 'string' || definition.name.trim() === '')
    return 'an eval needs a name.';
  if (definition.task === undefined) return `eval '${definition.name}' has no task.`;
  if (definition.scorers.length === 0) return `eval '${definition.name}' has no scorer.`;
  const names = definition.scorers.map(scorer => scorer.name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined)
    return `eval '${definition.name}' has two scorers named '${twice}': give one a name of its own.`;
  for (const [option, value] of [
    ['trials', definition.trials],
    ['concurrency', definition.concurrency],
  ] as const)
    if (value !== undefined && !(Number.isInteger(value) && value >= 1))
      return `eval '${definition.name}': ${option} must be a whole number, 1 or more (actual: ${String(value)}).`;
  return thresholdProblem(definition);
}

function thresholdProblem({ name, threshold, scorers }: EvalDefinition): string | undefined {
  if (threshold === undefined) return undefined;
  const entries =
    typeof threshold === 'number'
      ? [['every scorer', threshold] as const]
      : Object.entries(threshold);
  for (const [scorer, value] of entries) {
    if (!(typeof value === 'number' && value >= 0 && value <= 1))
      return `eval '${name}': the threshold of ${scorer === 'every scorer' ? scorer : `'${scorer}'`} must be a number from 0 to 1 (actual: ${String(value)}).`;
    if (scorer !== 'every scorer' && !scorers.some(each => each.name === scorer))
      return `eval '${name}' has a threshold for '${scorer}', which is none of its scorers (${scorers.map(each => each.name).join(', ')}).`;
  }
  return undefined;
}
