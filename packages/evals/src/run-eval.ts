import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { run, type RunOptions, type RunResult, type TraceSink } from '@agent-trace/core';
import { jsonlSink, memorySink } from '@agent-trace/trace';
import { mean } from './compare/bootstrap.js';
import { loadCases } from './data/load-cases.js';
import type { EvalDefinition } from './define-eval.js';
import { asScore, type EvalCase, type Score, type ScorerInput, type TaskRun } from './scorer.js';

/** How an eval is run. */
export interface RunEvalOptions {
  /** Writes each case's trace to `<traceDir>/<eval>/<case>.t<trial>.jsonl`. @defaultValue no files */
  readonly traceDir?: string;
  /** Runs only the cases whose id matches. */
  readonly filter?: string | RegExp;
  /** Over the definition's. */
  readonly trials?: number;
  /** Over the definition's. */
  readonly concurrency?: number;
  /** Runs the cases of one shard of `count` (1-based `index`): case k (0-based) is in shard k % count + 1. */
  readonly shard?: { readonly index: number; readonly count: number };
  /** Options every case's runs take: a shared `budget`, `rateLimits`, a `cache`, a `clock`… */
  readonly runOptions?: RunOptions;
  /** Told each case as it ends (a progress bar, a database). */
  readonly onCase?: (result: CaseResult) => void;
}

/** One case's trial: what it gave and how it scored. */
export interface CaseResult {
  readonly id: string;
  /** 1-based. */
  readonly trial: number;
  readonly input: unknown;
  readonly expected?: unknown;
  readonly output: unknown;
  /** By scorer name. */
  readonly scores: Readonly<Record<string, Score>>;
  /** Set when the task threw: every score is then 0. */
  readonly error?: string;
  readonly durationMs: number;
  /** The case's trace file, with `traceDir`. */
  readonly traceFile?: string;
}

/** What an eval run gave: every case's trials, and each scorer's mean. */
export interface EvalResult {
  readonly name: string;
  readonly cases: readonly CaseResult[];
  /** By scorer name: the mean score over every case and trial. */
  readonly means: Readonly<Record<string, number>>;
}

/**
 * Runs every case of the eval (its trials, `concurrency` at a time) and scores each. Results are
 * in data order, trial after trial, whatever the timing.
 */
export async function runEval<Input, Expected, Output>(
  typed: EvalDefinition<Input, Expected, Output>,
  options: RunEvalOptions = {},
): Promise<EvalResult> {
  // Inside, cases are values of any shape: the types are the definition's promise to its scorers.
  const definition = typed as unknown as EvalDefinition;
  const cases = selected(await casesOf(definition), options);
  const trials = options.trials ?? definition.trials ?? 1;
  const work = cases.flatMap(([id, evalCase]) =>
    Array.from({ length: trials }, (_, index) => ({ id, evalCase, trial: index + 1 })),
  );
  // Every trace file of the run goes to one folder, made once.
  const traceFolder =
    options.traceDir === undefined
      ? undefined
      : join(options.traceDir, fileNameOf(definition.name));
  if (traceFolder !== undefined) mkdirSync(traceFolder, { recursive: true });
  const results: CaseResult[] = new Array<CaseResult>(work.length);
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < work.length; at = next++) {
      const { id, evalCase, trial } = work[at] as (typeof work)[number];
      const result = await runCase(definition, id, evalCase, trial, options, traceFolder);
      results[at] = result;
      options.onCase?.(result);
    }
  };
  const concurrency = options.concurrency ?? definition.concurrency ?? 4;
  await Promise.all(Array.from({ length: Math.min(concurrency, work.length) }, worker));
  return { name: definition.name, cases: results, means: meansOf(definition, results) };
}

/** The definition's cases, each with its id (its own, or its 1-based place in the data). */
async function casesOf(definition: EvalDefinition): Promise<[string, EvalCase][]> {
  const data =
    typeof definition.data === 'string'
      ? await loadCases(definition.data)
      : typeof definition.data === 'function'
        ? await definition.data()
        : definition.data;
  return data.map((evalCase, index) => [evalCase.id ?? String(index + 1), evalCase]);
}

function selected(
  cases: [string, EvalCase][],
  { filter, shard }: RunEvalOptions,
): [string, EvalCase][] {
  if (shard !== undefined && !(shard.index >= 1 && shard.index <= shard.count))
    throw new RangeError(`shard ${shard.index}/${shard.count}: the index is from 1 to the count.`);
  return cases.filter(
    ([id], index) =>
      (filter === undefined ||
        (typeof filter === 'string' ? id.includes(filter) : filter.test(id))) &&
      (shard === undefined || index % shard.count === shard.index - 1),
  );
}

async function runCase(
  definition: EvalDefinition,
  id: string,
  evalCase: EvalCase,
  trial: number,
  options: RunEvalOptions,
  traceFolder: string | undefined,
): Promise<CaseResult> {
  const memory = memorySink();
  const traceFile =
    traceFolder === undefined ? undefined : join(traceFolder, `${fileNameOf(id)}.t${trial}.jsonl`);
  const sinks: TraceSink[] = [memory, ...(traceFile === undefined ? [] : [jsonlSink(traceFile)])];
  const runOptions: RunOptions = {
    ...options.runOptions,
    trace: sinks,
    session: `${definition.name}/${id}/${trial}`,
  };
  const started = performance.now();
  let ran: Pick<TaskRun, 'output' | 'result'>;
  let error: string | undefined;
  try {
    ran = await runTask(definition, evalCase, trial, runOptions);
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
    ran = { output: undefined };
  }
  const taskRun: TaskRun = {
    ...ran,
    trace: memory.events,
    durationMs: performance.now() - started,
  };
  // A scorer's own runs (a judge's) go to the case's file, not to what the other scorers read.
  const scorerRunOptions: RunOptions = { ...runOptions, trace: sinks.slice(1) };
  const scores = await scoresOf(
    definition,
    { ...taskRun, case: evalCase, runOptions: scorerRunOptions },
    error,
  );
  return {
    id,
    trial,
    input: evalCase.input,
    ...(evalCase.expected === undefined ? {} : { expected: evalCase.expected }),
    output: taskRun.output,
    scores,
    ...(error === undefined ? {} : { error }),
    durationMs: taskRun.durationMs,
    ...(traceFile === undefined ? {} : { traceFile }),
  };
}

async function runTask(
  definition: EvalDefinition,
  evalCase: EvalCase,
  trial: number,
  runOptions: RunOptions,
): Promise<Pick<TaskRun, 'output' | 'result'>> {
  const { task } = definition;
  if (typeof task !== 'function') {
    const input =
      typeof evalCase.input === 'string' ? evalCase.input : JSON.stringify(evalCase.input);
    const result = await run(task, input, runOptions);
    return { output: result.output, result };
  }
  const given = await task(evalCase.input, { runOptions, case: evalCase, trial });
  return isRunResult(given) ? { output: given.output, result: given } : { output: given };
}

async function scoresOf(
  definition: EvalDefinition,
  input: ScorerInput,
  error: string | undefined,
): Promise<Record<string, Score>> {
  const scores: Record<string, Score> = {};
  for (const scorer of definition.scorers) {
    if (error !== undefined) {
      scores[scorer.name] = { score: 0, reason: `the task failed: ${error}` };
      continue;
    }
    try {
      scores[scorer.name] = asScore(scorer.name, await scorer.score(input));
    } catch (caught) {
      const message = caught instanceof Error ? caught.message : String(caught);
      scores[scorer.name] = { score: 0, reason: `the scorer failed: ${message}` };
    }
  }
  return scores;
}

function meansOf(
  definition: EvalDefinition,
  results: readonly CaseResult[],
): Record<string, number> {
  const means: Record<string, number> = {};
  for (const { name } of definition.scorers)
    means[name] = mean(results.map(result => result.scores[name]?.score ?? 0));
  return means;
}

/** A name as a file name: letters, digits, `.`, `_` and `-`; anything else `_`. */
export function fileNameOf(name: string): string {
  return name.replace(/[^\w.-]/g, '_');
}

function isRunResult(value: unknown): value is RunResult<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'stopReason' in value &&
    'runId' in value &&
    'toolCalls' in value
  );
}
