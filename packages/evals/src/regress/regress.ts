import type { AnyAgent, LanguageModel, RunOptions } from '@agent-trace/core';
import type { BridgedAgent, RerunTarget } from '@agent-trace/trace';
import type { ExperimentStoreOptions } from '../experiment/experiment-store.js';
import type { Scorer } from '../scorer.js';
import {
  regressCase,
  type RegressCase,
  type RegressedRun,
  type RegressStatus,
} from './regress-case.js';
import { RegressExperiments, type RegressExperimentIds } from './regress-experiments.js';
import { RecordedFiles } from './recorded-files.js';
import { regressScorers } from './regress-scorers.js';
import { selectRecorded, type RecordedRun, type RegressSelection } from './select-recorded.js';

/** Options of {@link regress}. */
export interface RegressOptions extends RegressSelection {
  /** The folder of recorded traces: the trace library (indexed on the way). */
  readonly library: string;
  /** Today's code: an agent, a workflow, a planned run, or an agent of another framework (its bridge's). */
  readonly agent: RerunTarget | BridgedAgent;
  /**
   * Who answers from a divergence on: a live model (one for every agent, or one per agent), or a
   * cassette's. Without it a diverged run is reported and not scored. @defaultValue none
   */
  readonly continueWith?: LanguageModel | ((agent: AnyAgent) => LanguageModel);
  /**
   * Plays the person of a diverged conversation: with `continueWith`, a diverged turn of a
   * conversation the recording went on after is continued, and then the conversation goes on, the
   * agent answered by `continueWith` and the person played by this model (told what they said so
   * far), for as many turns as the recording had after it (`RegressCase.conversation`).
   * @defaultValue none: the turn alone is continued
   */
  readonly userModel?: LanguageModel;
  /** Each case is scored on the recorded run and on today's. @defaultValue `regressScorers()` */
  readonly scorers?: readonly Scorer[];
  /**
   * No continuation starts once the continuations have cost this much, in US dollars (those
   * running finish). @defaultValue no limit
   */
  readonly maxCostUsd?: number;
  /** How many recorded runs are regressed at once. @defaultValue 4 */
  readonly concurrency?: number;
  /**
   * Stops taking runs, and stops the continuations under way (their runs are sealed `aborted` and
   * left out): the result holds the cases that finished, and says `interrupted`.
   */
  readonly signal?: AbortSignal;
  /**
   * Run the real tools instead of answering with the recorded results, in every rerun and
   * continuation: what finds the runs a change of a tool's own code changes. The tools' side
   * effects happen again. @defaultValue false
   */
  readonly liveTools?: boolean;
  /** More options for every rerun and continuation (features, a clock, …). */
  readonly run?: Omit<RunOptions, 'overrides'>;
  /**
   * Keeps the regress as two experiments of the store (the recorded runs and today's), so
   * `eval list`, `eval view` and `eval compare` show it. @defaultValue not kept
   */
  readonly store?: ExperimentStoreOptions & { readonly name?: string };
  /** Told each case as it finishes. */
  readonly onCase?: (found: RegressCase) => void;
}

/** What a regress found. */
export interface RegressResult {
  /** Every regressed run, in the selection's order (the earliest first). */
  readonly cases: readonly RegressCase[];
  readonly counts: Readonly<Record<RegressStatus, number>>;
  /** Continued cases whose scores went up, and down. */
  readonly improved: readonly string[];
  readonly regressed: readonly string[];
  /** Live model calls, and what they cost (0 when every run was the same). */
  readonly modelCalls: number;
  readonly costUsd: number;
  /** Set when `signal` stopped the regress before every selected run was done. */
  readonly interrupted: boolean;
  /**
   * What the library could not read, a line per file (files it could not open, lines that are not
   * events, bytes that are not UTF-8): runs in them may be missing from `cases`. A gate should
   * not pass while this has any.
   */
  readonly unreadable: readonly string[];
  /** The experiments kept, with `store`. */
  readonly experiments?: RegressExperimentIds;
}

/**
 * Recorded runs as a regression suite: each selected run of the library is rerun against today's
 * code with no model call. A run that does the same passes at no cost; one that diverges is
 * reported with where and why, in words, and — with `continueWith` — continued from the step
 * before the divergence with a live model, so both the recorded run and today's are scored and
 * compared case by case. Memory is bounded by `concurrency`, not by the number of runs.
 */
export async function regress(options: RegressOptions): Promise<RegressResult> {
  let unreadable: readonly string[] = [];
  const selected = await selectRecorded(options.library, options, problems => {
    unreadable = problems;
  });
  const scorers = options.scorers ?? regressScorers();
  const at = new Date();
  const kept =
    options.store === undefined
      ? undefined
      : new RegressExperiments(
          { ...options.store, name: options.store.name ?? 'regress' },
          selected,
          scorers.map(scorer => scorer.name),
          at,
        );
  const cases = new Array<RegressCase | undefined>(selected.length);
  const files = new RecordedFiles(selected);
  let spent = 0;
  let next = 0;
  const setup = {
    target: options.agent,
    scorers,
    continueWith: options.continueWith,
    userModel: options.userModel,
    run: options.run,
    liveTools: options.liveTools === true,
    mayContinue: () => options.maxCostUsd === undefined || spent < options.maxCostUsd,
    signal: options.signal,
  };
  const worker = async (): Promise<void> => {
    while (next < selected.length && options.signal?.aborted !== true) {
      const index = next++;
      const recorded = selected[index] as RecordedRun;
      const regressed = await files
        .take(recorded)
        .then(events => regressCase(recorded, events, setup))
        .catch((error: unknown) => failedCase(recorded, error));
      if (regressed === undefined) continue; // stopped while it went on: not a case
      const { found, events } = regressed;
      spent += found.costUsd;
      cases[index] = found;
      kept?.record(index, found, events, new Date());
      options.onCase?.(found);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 4, selected.length));
  await Promise.all(Array.from({ length: workers }, worker));
  const done = cases.filter((found): found is RegressCase => found !== undefined);
  const interrupted = done.length < selected.length;
  kept?.end(interrupted ? 'interrupted' : 'completed', new Date());
  return { ...summary(done, interrupted, kept?.ids), unreadable };
}

/** A run whose regress threw (a scorer, the continuation): failed, with why. */
function failedCase(recorded: RecordedRun, error: unknown): RegressedRun {
  const why = error instanceof Error ? error.message : String(error);
  return {
    found: {
      run: recorded.run,
      input: recorded.input,
      ...(recorded.turn === undefined ? {} : { turn: recorded.turn }),
      status: 'failed',
      divergence: `the regress threw: ${why}`,
      before: {},
      after: undefined,
      verdict: 'not scored',
      modelCalls: 0,
      costUsd: 0,
    },
    events: { recorded: [], today: [] },
  };
}

function summary(
  cases: readonly RegressCase[],
  interrupted: boolean,
  experiments: RegressExperimentIds | undefined,
): Omit<RegressResult, 'unreadable'> {
  const counts: Record<RegressStatus, number> = { same: 0, diverged: 0, continued: 0, failed: 0 };
  for (const found of cases) counts[found.status]++;
  return {
    cases,
    counts,
    improved: cases.filter(found => found.verdict === 'improved').map(found => found.run),
    regressed: cases.filter(found => found.verdict === 'regressed').map(found => found.run),
    modelCalls: cases.reduce((sum, found) => sum + found.modelCalls, 0),
    costUsd: cases.reduce((sum, found) => sum + found.costUsd, 0),
    interrupted,
    ...(experiments === undefined ? {} : { experiments }),
  };
}
