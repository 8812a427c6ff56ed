import type { RunOptions, RunResult, TraceEvent } from '@agent-trace/core';

/** One case of a dataset: the task's input, what is expected of it, and anything else to keep. */
export interface EvalCase<Input = unknown, Expected = unknown> {
  /** Names the case in results and comparisons; by default its position in the data. */
  readonly id?: string;
  readonly input: Input;
  readonly expected?: Expected;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** What a case's run gave: the task's output, and the run's result and trace when it ran agents. */
export interface TaskRun<Output = unknown> {
  readonly output: Output;
  /** The result of the agent's run, when the task is an agent. */
  readonly result?: RunResult<unknown>;
  /** Every event the case's run wrote. */
  readonly trace: readonly TraceEvent[];
  /** Wall time of the case's run, in milliseconds. */
  readonly durationMs: number;
}

/** What a scorer is given: the case, and what its run gave. */
export interface ScorerInput<
  Input = unknown,
  Expected = unknown,
  Output = unknown,
> extends TaskRun<Output> {
  readonly case: EvalCase<Input, Expected>;
  /**
   * For a scorer that runs an agent (a judge): the case's trace file and session, and the
   * experiment's shared options, so its run is traced and priced beside the task's.
   */
  readonly runOptions?: RunOptions;
}

/** A score in [0, 1], with a sentence saying why. */
export interface Score {
  readonly score: number;
  readonly reason: string;
}

/**
 * Scores one case's run. A plain function of the case and its run; async when it needs to be (a
 * judge calls a model).
 */
export interface Scorer<Input = unknown, Expected = unknown, Output = unknown> {
  readonly name: string;
  score(input: ScorerInput<Input, Expected, Output>): Score | Promise<Score>;
}

/**
 * A scorer of your own from a function: return a number in [0, 1] (the reason is the number), a
 * boolean (1 or 0), or a `Score`.
 */
export function scorer<Input = unknown, Expected = unknown, Output = unknown>(
  name: string,
  score: (
    input: ScorerInput<Input, Expected, Output>,
  ) => number | boolean | Score | Promise<number | boolean | Score>,
): Scorer<Input, Expected, Output> {
  return {
    name,
    async score(input) {
      return asScore(name, await score(input));
    },
  };
}

/** A scorer's answer as a `Score`, checked to be in [0, 1]. */
export function asScore(name: string, value: number | boolean | Score): Score {
  const score =
    typeof value === 'boolean'
      ? { score: value ? 1 : 0, reason: value ? 'passed' : 'failed' }
      : typeof value === 'number'
        ? { score: value, reason: String(value) }
        : value;
  if (!(Number.isFinite(score.score) && score.score >= 0 && score.score <= 1))
    throw new RangeError(
      `Scorer '${name}' gave ${String(score.score)}: a score is a number from 0 to 1.`,
    );
  return score;
}

/** A value as text: a string as it is, anything else as JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
