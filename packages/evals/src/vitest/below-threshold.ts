import type { EvalResult } from '../run-eval.js';

/**
 * Why a scorer's mean is under its threshold, naming the lowest cases and their reasons; undefined
 * when it is not.
 */
export function belowThreshold(
  result: EvalResult,
  scorer: string,
  threshold: number,
): string | undefined {
  const mean = result.means[scorer] ?? 0;
  if (mean >= threshold) return undefined;
  const lowest = [...result.cases]
    .filter(each => (each.scores[scorer]?.score ?? 0) < 1)
    .sort((a, b) => (a.scores[scorer]?.score ?? 0) - (b.scores[scorer]?.score ?? 0))
    .slice(0, 5)
    .map(
      each =>
        `  ${each.id}#${each.trial}: ${each.scores[scorer]?.score ?? 0} (${each.scores[scorer]?.reason ?? 'no score'})`,
    );
  return `scorer '${scorer}' of eval '${result.name}': mean ${mean}, under ${threshold}. Lowest:\n${lowest.join('\n')}`;
}
