import { existsSync } from 'node:fs';
import { defined } from '@agent-trace/core/util';
import {
  byCase,
  compareEvals,
  evaluationsOf,
  mean,
  transcriptOf,
  type CaseResult,
  type EvalComparison,
  type EvalResult,
} from '@agent-trace/evals';
import { alignedRuns, readTraceFile } from './trace-views.js';
import type {
  CaseScoreData,
  ExperimentCaseData,
  ExperimentData,
  ExperimentScorerData,
  ExperimentSideData,
  ScoreChange,
  TraceFileData,
} from './viewer-data.js';

/** One experiment for the page: its runs, and what names it. */
export interface ExperimentSide {
  readonly result: EvalResult;
  /** What names it: an experiment id. */
  readonly id: string;
  readonly label?: string;
  readonly status?: string;
  readonly costUsd?: number;
  readonly unpricedCalls?: number;
}

/**
 * The page data of an experiment: a row per case and a column per scorer with the case's score
 * and, against a baseline, its change (regressed, improved, flaky). Each case opens its trace (the
 * lowest-scoring trial's), and with a baseline the two traces of the case side by side in the
 * diff view; the traces are read from the cases' trace files and held by the page.
 */
export async function experimentView(
  candidate: ExperimentSide,
  baseline?: ExperimentSide,
  { tolerance = 0 }: { tolerance?: number } = {},
): Promise<ExperimentData> {
  const comparison =
    baseline === undefined
      ? undefined
      : compareEvals(baseline.result, candidate.result, { tolerance });
  const traces: TraceFileData[] = [];
  const traceOf = async (result: CaseResult | undefined) => {
    if (result?.traceFile === undefined || !existsSync(result.traceFile)) return undefined;
    const file = await readTraceFile(result.traceFile);
    // The case's scores, on the span each judges, as the export sends them.
    const evaluations = evaluationsOf(file.events, result.scores, 0).map(
      ({ spanId, name, score, label, explanation }) => ({
        spanId,
        name,
        score,
        ...defined('label', label),
        ...defined('explanation', explanation),
      }),
    );
    traces.push({ ...file, evaluations });
    return traces.length - 1;
  };
  const cases: ExperimentCaseData[] = [];
  const before = byCase(baseline?.result.cases ?? []);
  for (const [id, trials] of byCase(candidate.result.cases)) {
    const shown = lowest(trials);
    const baselineTrials = before.get(id);
    const baselineShown =
      baselineTrials?.find(each => each.trial === shown.trial) ?? baselineTrials?.[0];
    const trace = await traceOf(shown);
    const baselineTrace = await traceOf(baselineShown);
    const diff =
      trace === undefined || baselineTrace === undefined
        ? undefined
        : await alignedRuns(
            (traces[baselineTrace] as TraceFileData).events,
            (traces[trace] as TraceFileData).events,
          );
    cases.push({
      id,
      trials: trials.length,
      scores: scoresOf(id, trials, shown, baselineTrials, comparison),
      ...defined('error', shown.error),
      trial: shown.trial,
      ...defined('trace', trace),
      ...defined('baselineTrace', baselineTrace),
      ...defined('diff', diff),
      ...defined('transcript', transcriptOf(shown.output)),
    });
  }
  return {
    mode: 'experiment',
    title: `${candidate.result.name} · ${candidate.id}`,
    candidate: sideData(candidate),
    ...(baseline === undefined ? {} : { baseline: sideData(baseline) }),
    scorers: scorersOf(candidate.result, comparison),
    cases,
    traces,
  };
}

function sideData(side: ExperimentSide): ExperimentSideData {
  return {
    id: side.id,
    eval: side.result.name,
    runs: side.result.cases.length,
    ...defined('label', side.label),
    ...defined('status', side.status),
    ...defined('costUsd', side.costUsd),
    ...defined('unpricedCalls', side.unpricedCalls),
  };
}

function scorersOf(
  result: EvalResult,
  comparison: EvalComparison | undefined,
): ExperimentScorerData[] {
  return Object.entries(result.means).map(([name, mean]) => {
    const compared = comparison?.scorers.find(each => each.scorer === name);
    return compared === undefined
      ? { name, candidate: mean }
      : {
          name,
          candidate: mean,
          baseline: compared.baseline,
          difference: compared.difference,
          interval: compared.interval,
        };
  });
}

function scoresOf(
  id: string,
  trials: readonly CaseResult[],
  /** The trial the page opens: its reasons are shown. */
  shown: CaseResult,
  baselineTrials: readonly CaseResult[] | undefined,
  comparison: EvalComparison | undefined,
): Record<string, CaseScoreData> {
  const scores: Record<string, CaseScoreData> = {};
  for (const name of Object.keys(shown.scores)) {
    const score = meanOf(trials, name);
    const baseline = baselineTrials === undefined ? undefined : meanOf(baselineTrials, name);
    scores[name] = {
      score,
      reason: shown.scores[name]?.reason ?? '',
      ...defined('baseline', baseline),
      change: changeOf(id, name, baseline, comparison),
    };
  }
  return scores;
}

function changeOf(
  id: string,
  scorer: string,
  baseline: number | undefined,
  comparison: EvalComparison | undefined,
): ScoreChange {
  if (comparison === undefined || baseline === undefined) return 'new';
  if (comparison.flaky.some(each => each.id === id && each.scorer === scorer)) return 'flaky';
  const compared = comparison.scorers.find(each => each.scorer === scorer);
  if (compared?.regressed.some(each => each.id === id) === true) return 'regressed';
  if (compared?.improved.some(each => each.id === id) === true) return 'improved';
  return 'same';
}

/** The trial with the lowest total score: the one worth opening. */
function lowest(trials: readonly CaseResult[]): CaseResult {
  const total = (result: CaseResult) =>
    Object.values(result.scores).reduce((sum, each) => sum + each.score, 0);
  return trials.reduce((low, each) => (total(each) < total(low) ? each : low));
}

function meanOf(trials: readonly CaseResult[], scorer: string): number {
  return mean(trials.map(each => each.scores[scorer]?.score ?? 0));
}
