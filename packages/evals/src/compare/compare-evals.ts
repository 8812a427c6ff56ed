import type { CaseResult, EvalResult } from '../run-eval.js';
import type { TranscriptEntry } from '../conversation/simulated-user.js';
import { transcriptOf } from '../conversation/transcript-text.js';
import { bootstrapInterval, mean } from './bootstrap.js';

/** How a case's score moved between two runs of an eval. */
export interface CaseChange {
  readonly id: string;
  /** The mean over the case's trials. */
  readonly baseline: number;
  readonly candidate: number;
  /** The candidate's reason, from its lowest-scoring trial. */
  readonly reason: string;
  /** With trials: the variance of the case's trial scores in each run (0 when they agree). */
  readonly variance?: { readonly baseline: number; readonly candidate: number };
  /** The conversation of the candidate's lowest-scoring trial, for a conversation task's case. */
  readonly transcript?: readonly TranscriptEntry[];
}

/** One scorer, compared over the cases both runs have. */
export interface ScorerComparison {
  readonly scorer: string;
  readonly baseline: number;
  readonly candidate: number;
  /** The mean of the paired differences (candidate − baseline), case by case. */
  readonly difference: number;
  /** A bootstrap 95% interval of that difference. */
  readonly interval: readonly [number, number];
  /** Every paired case, in the candidate's order. */
  readonly cases: readonly CaseChange[];
  /** Cases that dropped by more than the tolerance (flaky ones aside). */
  readonly regressed: readonly CaseChange[];
  readonly improved: readonly CaseChange[];
  /** With trials: the share of cases with at least one full score (pass@k), per run. */
  readonly passAtK?: { readonly baseline: number; readonly candidate: number };
}

/** A case whose trials disagree: its change says little, and it is not counted as a regression. */
export interface FlakyCase {
  readonly id: string;
  readonly scorer: string;
  /** Its trials' scores, in the run where they disagree (the candidate's if both). */
  readonly scores: readonly number[];
}

/** A case's trial whose task threw: every score of it is 0, and says nothing of the agent. */
export interface FailedRun {
  readonly id: string;
  readonly trial: number;
  readonly error: string;
}

/** Two runs of an eval, compared scorer by scorer and case by case. */
export interface EvalComparison {
  readonly scorers: readonly ScorerComparison[];
  readonly flaky: readonly FlakyCase[];
  /** Cases only one of the runs has. */
  readonly unpaired: readonly string[];
  /** True when a case regressed past the tolerance on some scorer. */
  readonly regressed: boolean;
  /** The trials whose task threw, in each run. */
  readonly failed: {
    readonly baseline: readonly FailedRun[];
    readonly candidate: readonly FailedRun[];
  };
  /**
   * What a CI gate reads: no case regressed past the tolerance, and no task of the candidate
   * threw (a comparison of failed runs is never a pass, whatever their scores).
   */
  readonly passed: boolean;
}

/**
 * Compares a candidate run of an eval with a baseline: per scorer the means, the paired
 * difference with a bootstrap 95% interval, the cases that regressed and improved by more than
 * `tolerance`, pass@k with trials, and the flaky cases (trials that disagree) named apart.
 */
export function compareEvals(
  baseline: EvalResult,
  candidate: EvalResult,
  { tolerance = 0, seed = 1 }: { tolerance?: number; seed?: number } = {},
): EvalComparison {
  const before = byCase(baseline.cases);
  const after = byCase(candidate.cases);
  const paired = [...after.keys()].filter(id => before.has(id));
  const unpaired = [...new Set([...before.keys(), ...after.keys()])].filter(
    id => !(before.has(id) && after.has(id)),
  );
  const scorerNames = Object.keys(candidate.means);
  const flaky: FlakyCase[] = [];
  const scorers = scorerNames.map(scorer => {
    const flakyHere = new Set<string>();
    for (const id of paired) {
      const trials = disagreeing(after.get(id), scorer) ?? disagreeing(before.get(id), scorer);
      if (trials !== undefined) {
        flakyHere.add(id);
        flaky.push({ id, scorer, scores: trials });
      }
    }
    return compareScorer(scorer, paired, before, after, { tolerance, seed, flaky: flakyHere });
  });
  const regressed = scorers.some(comparison => comparison.regressed.length > 0);
  const failed = { baseline: failedRuns(baseline.cases), candidate: failedRuns(candidate.cases) };
  return {
    scorers,
    flaky,
    unpaired,
    regressed,
    failed,
    passed: !regressed && failed.candidate.length === 0,
  };
}

/** The trials whose task threw. */
export function failedRuns(results: readonly CaseResult[]): FailedRun[] {
  return results.flatMap(({ id, trial, error }) =>
    error === undefined ? [] : [{ id, trial, error }],
  );
}

function compareScorer(
  scorer: string,
  paired: readonly string[],
  before: ReadonlyMap<string, readonly CaseResult[]>,
  after: ReadonlyMap<string, readonly CaseResult[]>,
  options: { tolerance: number; seed: number; flaky: ReadonlySet<string> },
): ScorerComparison {
  const changes = paired.map(id => change(id, scorer, before.get(id) ?? [], after.get(id) ?? []));
  const differences = changes.map(({ baseline, candidate }) => candidate - baseline);
  const steady = changes.filter(({ id }) => !options.flaky.has(id));
  const trials = Math.max(...paired.map(id => after.get(id)?.length ?? 1), 1);
  return {
    scorer,
    baseline: mean(changes.map(each => each.baseline)),
    candidate: mean(changes.map(each => each.candidate)),
    difference: mean(differences),
    interval: bootstrapInterval(differences, { seed: options.seed }),
    cases: changes,
    regressed: steady.filter(each => each.candidate < each.baseline - options.tolerance),
    improved: steady.filter(each => each.candidate > each.baseline + options.tolerance),
    ...(trials > 1
      ? {
          passAtK: {
            baseline: passAtK(
              paired.map(id => before.get(id) ?? []),
              scorer,
            ),
            candidate: passAtK(
              paired.map(id => after.get(id) ?? []),
              scorer,
            ),
          },
        }
      : {}),
  };
}

function change(
  id: string,
  scorer: string,
  before: readonly CaseResult[],
  after: readonly CaseResult[],
): CaseChange {
  const lowest = [...after].sort(
    (a, b) => (a.scores[scorer]?.score ?? 0) - (b.scores[scorer]?.score ?? 0),
  )[0];
  const scores = (trials: readonly CaseResult[]) =>
    trials.map(result => result.scores[scorer]?.score ?? 0);
  return {
    id,
    baseline: mean(scores(before)),
    candidate: mean(scores(after)),
    reason: lowest?.scores[scorer]?.reason ?? '',
    ...transcriptField(lowest?.output),
    ...(before.length > 1 || after.length > 1
      ? { variance: { baseline: variance(scores(before)), candidate: variance(scores(after)) } }
      : {}),
  };
}

/** The population variance of the values; 0 for none. */
function variance(values: readonly number[]): number {
  const centre = mean(values);
  return mean(values.map(value => (value - centre) ** 2));
}

/** The trials' scores of a case when they disagree; undefined when they agree (or there is one). */
function disagreeing(
  trials: readonly CaseResult[] | undefined,
  scorer: string,
): number[] | undefined {
  const scores = (trials ?? []).map(result => result.scores[scorer]?.score ?? 0);
  return scores.some(score => score !== scores[0]) ? scores : undefined;
}

/** The share of cases with at least one trial scoring 1. */
function passAtK(cases: readonly (readonly CaseResult[])[], scorer: string): number {
  return mean(
    cases.map(trials => (trials.some(result => result.scores[scorer]?.score === 1) ? 1 : 0)),
  );
}

/** A run's results by case id, each case's trials in order. */
export function byCase(results: readonly CaseResult[]): Map<string, CaseResult[]> {
  const cases = new Map<string, CaseResult[]>();
  for (const result of results) {
    const trials = cases.get(result.id) ?? [];
    trials.push(result);
    cases.set(result.id, trials);
  }
  return cases;
}

/** `transcript` of a change, when the case's output is a conversation. */
function transcriptField(output: unknown): Pick<CaseChange, 'transcript'> {
  const transcript = transcriptOf(output);
  return transcript === undefined ? {} : { transcript };
}
