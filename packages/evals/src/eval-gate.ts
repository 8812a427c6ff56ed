import { failedRuns, type FailedRun } from './compare/compare-evals.js';
import { transcriptLines, transcriptOf } from './conversation/transcript-text.js';
import type { EvalResult } from './run-eval.js';
import type { CaseSource } from './dataset/dataset-case.js';

/**
 * The mean score each scorer of an eval must reach: one for all, or by scorer name (a scorer not
 * named has none).
 */
export type EvalThreshold = number | Readonly<Record<string, number>>;

/** The mean `scorer` must reach under `threshold`; undefined when it has none. */
export function thresholdFor(
  threshold: EvalThreshold | undefined,
  scorer: string,
): number | undefined {
  return typeof threshold === 'number' ? threshold : threshold?.[scorer];
}

/**
 * A conversation's transcript under its case's line (a conversation task's output): who said
 * what, a line each, cut to 100 characters; '' for any other output.
 */
function transcriptUnder(output: unknown): string {
  const transcript = transcriptOf(output);
  return transcript === undefined
    ? ''
    : transcriptLines(transcript)
        .map(line => `\n      ${line}`)
        .join('');
}

/** Where a case made of a recorded run came from, under its line: the run and how to open it. */
function lineageUnder(source: CaseSource | undefined): string {
  return source === undefined
    ? ''
    : `\n      from run ${source.run} (${source.time}${source.release === undefined ? '' : `, release ${source.release}`}): agent-trace replay ${source.trace} --run ${source.run}`;
}

/**
 * Why a scorer's mean is under its threshold, naming the cases that scored under it (the lowest
 * first, at most ten) with their reasons; undefined when it is not.
 */
export function belowThreshold(
  result: EvalResult,
  scorer: string,
  threshold: number,
): string | undefined {
  const mean = result.means[scorer] ?? 0;
  if (mean >= threshold) return undefined;
  const under = [...result.cases]
    .filter(each => (each.scores[scorer]?.score ?? 0) < threshold)
    .sort((a, b) => (a.scores[scorer]?.score ?? 0) - (b.scores[scorer]?.score ?? 0));
  const named = firstTen(
    under.map(
      each =>
        `  ${each.id}#${each.trial}: ${each.scores[scorer]?.score ?? 0} (${each.error === undefined ? (each.scores[scorer]?.reason ?? 'no score') : `the task threw: ${each.error}`})${transcriptUnder(each.output)}${lineageUnder(each.source)}`,
    ),
  );
  return `scorer '${scorer}' of eval '${result.name}': mean ${mean}, under ${threshold}. Cases under it:\n${named.join('\n')}`;
}

/** At most ten lines, then how many more there are. */
function firstTen(lines: readonly string[]): string[] {
  return lines.length <= 10
    ? [...lines]
    : [...lines.slice(0, 10), `  … and ${lines.length - 10} more`];
}

/** The trials whose task threw, a line each with why (at most ten, then how many more). */
export function failedRunLines(failed: readonly FailedRun[]): string[] {
  return firstTen(failed.map(each => `  ${each.id}#${each.trial}: ${each.error}`));
}

/** What fails an eval run as a gate, in words. */
export interface EvalGate {
  /** The trials whose task threw, each with why (a failed task is an error, not a score of 0). */
  readonly failed: string | undefined;
  /** Each scorer whose mean is under its threshold, with the cases under it. */
  readonly below: readonly string[];
}

/** What fails an eval run as a gate: the trials whose task threw, the scorers under their threshold. */
export function evalGate(result: EvalResult, threshold?: EvalThreshold): EvalGate {
  const failed = failedRuns(result.cases);
  const below: string[] = [];
  for (const scorer of Object.keys(result.means)) {
    const mean = thresholdFor(threshold, scorer);
    const problem = mean === undefined ? undefined : belowThreshold(result, scorer, mean);
    if (problem !== undefined) below.push(problem);
  }
  return {
    failed:
      failed.length === 0
        ? undefined
        : [
            `eval '${result.name}': ${failed.length} of ${result.cases.length} runs failed: the task threw (a failed task is an error, not a score of 0).`,
            ...failedRunLines(failed),
          ].join('\n'),
    below,
  };
}
