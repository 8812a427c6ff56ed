import type { Usage } from '../../kernel/protocol/usage.js';
import { roundDollars } from '../../kernel/protocol/cost-tally.js';
import type { ModelPrice } from './prices.js';

/**
 * What a model call cost, in US dollars: uncached input at the input price, cache reads and
 * writes at theirs (the input price when the table has none), output at the output price.
 * Rounded to 1e-10 dollars, so sums of many calls stay exact enough to compare.
 */
export function costOf(usage: Usage, price: ModelPrice): number {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, usage.promptTokens - cacheRead - cacheWrite);
  const dollars =
    (uncached * price.inputPerMillion +
      cacheRead * (price.cachedInputPerMillion ?? price.inputPerMillion) +
      cacheWrite * (price.cacheWritePerMillion ?? price.inputPerMillion) +
      usage.completionTokens * price.outputPerMillion) /
    1_000_000;
  return roundDollars(dollars);
}
