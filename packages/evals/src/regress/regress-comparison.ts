import { compareEvals } from '../compare/compare-evals.js';
import type { ComparedEval } from '../report/compared-evals.js';
import { meansOf, type CaseResult, type EvalResult } from '../run-eval.js';
import type { Score } from '../scorer.js';
import type { RegressCase } from './regress-case.js';
import type { RegressResult } from './regress.js';

const noUsage = { tokensIn: 0, tokensOut: 0, costUsd: 0, unpricedCalls: 0, models: [] };

/** The cases of one side, as an eval's result: each scored case with the side's scores. */
function side(
  name: string,
  cases: readonly RegressCase[],
  scoresOf: (found: RegressCase) => Readonly<Record<string, Score>>,
): EvalResult {
  const results: CaseResult[] = cases.map((found, index) => ({
    id: found.run,
    index,
    trial: 1,
    input: found.input,
    output: found.status,
    scores: scoresOf(found),
    durationMs: 0,
    usage: noUsage,
  }));
  return { name, cases: results, means: meansOf(Object.keys(results[0]?.scores ?? {}), results) };
}

/**
 * A regress as a comparison of evals, the recorded runs against today's, case by case (the runs
 * scored on both sides: the same ones and the continued ones), so the eval reports (JUnit,
 * Markdown) and their gate read it as they read `eval compare`'s.
 */
export function regressComparison(result: RegressResult, tolerance = 0): ComparedEval {
  const scored = result.cases.filter(found => found.after !== undefined);
  const recorded = side('regress', scored, found => found.before);
  const today = side('regress', scored, found => found.after ?? found.before);
  return {
    eval: 'regress',
    baseline: result.experiments?.recorded ?? 'recorded',
    candidate: result.experiments?.today ?? 'today',
    baselineLabel: 'recorded',
    candidateLabel: 'today',
    comparison: compareEvals(recorded, today, { tolerance }),
  };
}
