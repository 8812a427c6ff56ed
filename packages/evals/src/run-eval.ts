import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { run, type RunOptions, type RunResult, type TraceEvent } from '@agent-trace/core';
import { jsonlSink, memorySink } from '@agent-trace/trace';
import { runTotals } from '@agent-trace/trace/model';
import { defined } from '@agent-trace/core/util';
import { mean } from './compare/bootstrap.js';
import { sourceOf, type CaseSource } from './dataset/dataset-case.js';
import { loadCases } from './data/load-cases.js';
import type { EvalDefinition } from './define-eval.js';
import { asScore, type EvalCase, type Score, type ScorerInput, type TaskRun } from './scorer.js';
import { evaluationsOf, exportingSinks, reportEvaluations } from './report-evaluations.js';

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
  /** Told each case as it ends (a progress bar, a database), with how many have ended of all. */
  readonly onCase?: (result: CaseResult, progress: { done: number; total: number }) => void;
  /**
   * Stops the eval (as a `signal` in the run options does): no further case starts, the cases
   * running are aborted (their traces sealed, `aborted`), and the result holds the cases that
   * finished, with `interrupted` set.
   */
  readonly signal?: AbortSignal;
}

/** What a case's runs used: the task's and its scorers' (a judge's) together. */
export interface CaseUsage {
  readonly tokensIn: number;
  readonly tokensOut: number;
  /** Of the priced calls; see `unpricedCalls`. */
  readonly costUsd: number;
  /** Model calls of models with no price: while there are any, the cost is a lower bound. */
  readonly unpricedCalls: number;
  /** The models called, in the order first called. */
  readonly models: readonly string[];
}

/** One case's trial: what it gave and how it scored. */
export interface CaseResult {
  readonly id: string;
  /** The case's 0-based place in the whole dataset (before a filter or shard). */
  readonly index: number;
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
  readonly usage: CaseUsage;
  /** The case's trace file, with `traceDir`. */
  readonly traceFile?: string;
  /** The recorded run the case was made of (`agent-trace dataset add`), when it was. */
  readonly source?: CaseSource;
}

/** What an eval run gave: every case's trials, and each scorer's mean. */
export interface EvalResult {
  readonly name: string;
  readonly cases: readonly CaseResult[];
  /** By scorer name: the mean score over every case and trial. */
  readonly means: Readonly<Record<string, number>>;
  /** Set when `signal` stopped the eval: `cases` holds the ones that finished. */
  readonly interrupted?: boolean;
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
  const work = cases.flatMap(({ id, index, evalCase }) =>
    Array.from({ length: trials }, (_, at) => ({ id, index, evalCase, trial: at + 1 })),
  );
  // Every trace file of the run goes to one folder, made once.
  const traceFolder =
    options.traceDir === undefined
      ? undefined
      : join(options.traceDir, fileNameOf(definition.name));
  if (traceFolder !== undefined) mkdirSync(traceFolder, { recursive: true });
  const results: (CaseResult | undefined)[] = new Array<CaseResult | undefined>(work.length);
  const shared = sharedRunOptions(definition, options);
  // Any signal the runs take stops the eval: the caller's, or one in the run options.
  const stopped = () => shared.signal?.aborted === true;
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let at = next++; at < work.length && !stopped(); at = next++) {
      const { id, index, evalCase, trial } = work[at] as (typeof work)[number];
      const result = await runCase(definition, { id, index, evalCase, trial }, shared, traceFolder);
      // A case the signal cut short did not finish: it is not a result.
      if (stopped()) return;
      results[at] = result;
      options.onCase?.(result, { done: ++done, total: work.length });
    }
  };
  const concurrency = options.concurrency ?? definition.concurrency ?? 4;
  await Promise.all(Array.from({ length: Math.min(concurrency, work.length) }, worker));
  const finished = results.filter(result => result !== undefined);
  return {
    name: definition.name,
    cases: finished,
    means: meansOf(
      definition.scorers.map(scorer => scorer.name),
      finished,
    ),
    ...(stopped() ? { interrupted: true } : {}),
  };
}

/** The run options every case's runs take: the definition's, the caller's over them, the signal. */
function sharedRunOptions(definition: EvalDefinition, options: RunEvalOptions): RunOptions {
  const given = { ...definition.runOptions, ...options.runOptions };
  const signals = [given.signal, options.signal].filter(signal => signal !== undefined);
  return signals.length === 0
    ? given
    : { ...given, signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) };
}

/** A case of the dataset with its id and place. */
export interface PlacedCase {
  /** Its own id, or its 1-based place in the data. */
  readonly id: string;
  /** 0-based. */
  readonly index: number;
  readonly evalCase: EvalCase;
}

/** The definition's cases, each with its id and place in the data. */
export async function casesOf(definition: EvalDefinition): Promise<PlacedCase[]> {
  const data =
    typeof definition.data === 'string'
      ? await loadCases(definition.data)
      : typeof definition.data === 'function'
        ? await definition.data()
        : definition.data;
  return data.map((evalCase, index) => ({ id: evalCase.id ?? String(index + 1), index, evalCase }));
}

function selected(cases: PlacedCase[], { filter, shard }: RunEvalOptions): PlacedCase[] {
  if (shard !== undefined && !(shard.index >= 1 && shard.index <= shard.count))
    throw new RangeError(`shard ${shard.index}/${shard.count}: the index is from 1 to the count.`);
  return cases.filter(
    ({ id, index }) =>
      (filter === undefined ||
        (typeof filter === 'string' ? id.includes(filter) : filter.test(id))) &&
      (shard === undefined || index % shard.count === shard.index - 1),
  );
}

async function runCase(
  definition: EvalDefinition,
  { id, index, evalCase, trial }: PlacedCase & { readonly trial: number },
  shared: RunOptions,
  traceFolder: string | undefined,
): Promise<CaseResult> {
  const memory = memorySink();
  const traceFile =
    traceFolder === undefined ? undefined : join(traceFolder, `${fileNameOf(id)}.t${trial}.jsonl`);
  const file = traceFile === undefined ? [] : [jsonlSink(traceFile)];
  // Sinks of the eval's own options that export (an otlpSink, an otelSink) follow every case.
  const exporting = exportingSinks(shared.trace);
  const sinks = [memory, ...file, ...exporting];
  const runOptions: RunOptions = {
    ...shared,
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
  // A scorer's own runs (a judge's) go to the case's file, not to what the other scorers read;
  // they are priced with the case all the same.
  const scorerMemory = memorySink();
  const scorerRunOptions: RunOptions = { ...runOptions, trace: [scorerMemory, ...file] };
  const scores = await scoresOf(
    definition,
    { ...taskRun, case: evalCase, runOptions: scorerRunOptions },
    error,
  );
  reportEvaluations(evaluationsOf(memory.events, scores, Date.now()), sinks, shared.autoExport);
  return {
    id,
    index,
    trial,
    input: evalCase.input,
    ...(evalCase.expected === undefined ? {} : { expected: evalCase.expected }),
    output: taskRun.output,
    scores,
    ...(error === undefined ? {} : { error }),
    durationMs: taskRun.durationMs,
    usage: usageOf([...memory.events, ...scorerMemory.events]),
    ...(traceFile === undefined ? {} : { traceFile }),
    ...defined('source', sourceOf(evalCase.metadata)),
  };
}

function usageOf(events: readonly TraceEvent[]): CaseUsage {
  const { tokensIn, tokensOut, costUsd, unpricedCalls } = runTotals(events);
  const models = new Set<string>();
  for (const event of events) if (event.event === 'llm_start') models.add(event.model);
  return { tokensIn, tokensOut, costUsd, unpricedCalls, models: [...models] };
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

/** Each scorer's mean over `results` (0 for a case it did not score), in the order given. */
export function meansOf(
  scorers: readonly string[],
  results: readonly CaseResult[],
): Record<string, number> {
  const means: Record<string, number> = {};
  for (const name of scorers)
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
