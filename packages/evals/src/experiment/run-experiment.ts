import { randomBytes } from 'node:crypto';
import type { EvalDefinition } from '../define-eval.js';
import { casesOf, runEval, type EvalResult, type RunEvalOptions } from '../run-eval.js';
import {
  ExperimentStore,
  type ExperimentStoreOptions,
  type ExperimentSummary,
} from './experiment-store.js';
import { configHash, datasetHash, gitState, type GitState } from './identity.js';
import { ExperimentJournal, type ExperimentIdentity } from './journal.js';
import { summaryOfRun } from './run-summary.js';

/** How an eval is run as an experiment. */
export interface RunExperimentOptions
  extends Omit<RunEvalOptions, 'traceDir'>, ExperimentStoreOptions {
  /**
   * The experiment's id. Writers given the same id (shards on two processes or machines) write one
   * experiment. @defaultValue a new one: the start time and six random characters
   */
  readonly experiment?: string;
  /** Over what git says (the branch on a detached CI checkout, say). */
  readonly git?: GitState;
  /** Where git is asked. @defaultValue `process.cwd()` */
  readonly cwd?: string;
  /** What the branch is read from (`AGENT_TRACE_BRANCH`, a CI's variables). @defaultValue `process.env` */
  readonly env?: NodeJS.ProcessEnv;
  /** @defaultValue the system clock */
  readonly now?: () => Date;
}

/** What an experiment's run gave: this process's result, and the experiment as the store has it. */
export interface ExperimentRun {
  readonly result: EvalResult;
  readonly experiment: ExperimentSummary;
}

/**
 * Runs an eval as an experiment kept in the store: what identifies it (commit and dirty flag,
 * branch, dataset and configuration hashes, time) and every finished case with its scores, cost
 * and trace. Each case is on disk as it finishes, so an interrupted or crashed run keeps every
 * case it finished. The index is not opened: any later read brings it up to date.
 */
export async function runExperiment<Input, Expected, Output>(
  typed: EvalDefinition<Input, Expected, Output>,
  options: RunExperimentOptions = {},
): Promise<ExperimentRun> {
  const definition = typed as unknown as EvalDefinition;
  const now = options.now ?? (() => new Date());
  const placed = await casesOf(definition);
  const started = now();
  const identity: ExperimentIdentity = {
    id: options.experiment ?? newExperimentId(started),
    eval: definition.name,
    startedAt: started.toISOString(),
    git: { ...gitState(options.cwd ?? process.cwd(), options.env ?? process.env), ...options.git },
    datasetHash: datasetHash(placed),
    configHash: configHash(definition),
    scorers: definition.scorers.map(scorer => scorer.name),
    cases: placed.length,
  };
  const store = new ExperimentStore(options);
  const journal = new ExperimentJournal(store.experimentsDir, identity, {
    at: started.toISOString(),
    trials: options.trials ?? definition.trials ?? 1,
    ...(options.shard === undefined
      ? {}
      : { shard: `${options.shard.index}/${options.shard.count}` }),
    ...(options.filter === undefined ? {} : { filter: String(options.filter) }),
  });
  // The cases as loaded once: the data is not read again, and ids stay as they were.
  const loaded: EvalDefinition = { ...definition, data: placed.map(each => each.evalCase) };
  const result = await runEval(loaded, {
    ...options,
    traceDir: journal.traceDir,
    onCase: (caseResult, progress) => {
      journal.record(caseResult, now());
      options.onCase?.(caseResult, progress);
    },
  });
  journal.end(result.interrupted === true ? 'interrupted' : 'completed', now());
  // The only writer of a new experiment knows its summary; shards and shared ids ask the store,
  // which merges every writer's cases.
  const alone = options.experiment === undefined && options.shard === undefined;
  return {
    result,
    experiment: alone
      ? summaryOfRun(identity, result, journal.folder)
      : await store.get(identity.id),
  };
}

/** A new experiment id: the time, sortable, and six random characters. */
export function newExperimentId(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}
