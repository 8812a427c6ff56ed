import type { EvalResult } from '../run-eval.js';
import type { GitState } from './identity.js';

/**
 * How an experiment stands: every writer ended (`completed`), one was stopped (`interrupted`, by
 * Ctrl-C or a signal), one is still writing (`running`), or one stopped without ending
 * (`unfinished`: killed or crashed; its finished cases are kept all the same).
 */
export type ExperimentStatus = 'completed' | 'interrupted' | 'running' | 'unfinished';

/** An experiment as the store lists it: what identifies it, how it stands, what it scored and cost. */
export interface ExperimentSummary {
  readonly id: string;
  readonly eval: string;
  /** ISO time. */
  readonly startedAt: string;
  readonly status: ExperimentStatus;
  readonly git: GitState;
  readonly datasetHash: string;
  readonly configHash: string;
  readonly scorers: readonly string[];
  /** Cases in the whole dataset; `runs` counts those run here, trials included. */
  readonly datasetCases: number;
  readonly runs: number;
  /** Runs whose task failed. */
  readonly failed: number;
  /** By scorer, in the definition's order: the mean over every run. */
  readonly means: Readonly<Record<string, number>>;
  /** Of the priced calls, the task's and its judges'; see `unpricedCalls`. */
  readonly costUsd: number;
  readonly unpricedCalls: number;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly models: readonly string[];
  /** The shards its writers ran (`i/n`), when any ran one. */
  readonly shards: readonly string[];
  /** The experiment's folder (its journals and `traces/`). */
  readonly folder: string;
}

/** An experiment with every run it kept, as `compareEvals` takes it. */
export interface StoredExperiment extends EvalResult {
  readonly experiment: ExperimentSummary;
}

/** No experiment in the store has that id (or starts with it), or more than one does. */
export class UnknownExperimentError extends Error {
  constructor(id: string, problem: string) {
    super(`Experiment '${id}' ${problem}. 'agent-trace eval list' shows the experiments kept.`);
    this.name = 'UnknownExperimentError';
  }
}

/**
 * Reads of the store over one open index, brought up to date once: what a command that asks
 * several questions (a comparison's two sides and its baseline) uses instead of opening the
 * index for each. Given by `ExperimentStore.reading`.
 */
export interface ExperimentReader {
  /** The experiments, newest first; of one eval, or of one branch, when asked. */
  list(filter?: { eval?: string; branch?: string; limit?: number }): Promise<ExperimentSummary[]>;
  /** One experiment, by id or a prefix of one that no other id has. */
  get(id: string): Promise<ExperimentSummary>;
  /** An experiment with every run it kept, in data order, trial after trial. */
  result(id: string): Promise<StoredExperiment>;
  /**
   * What `candidate` is compared with by default: the newest experiment of its eval on `branch`
   * that began before it and completed.
   */
  baselineFor(
    candidate: ExperimentSummary,
    branch?: string,
  ): Promise<ExperimentSummary | undefined>;
}
