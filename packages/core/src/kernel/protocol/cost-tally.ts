/** Dollars rounded to 1e-10. */
export function roundDollars(dollars: number): number {
  return Math.round(dollars * 1e10) / 1e10;
}

/** The cost of some model calls: what the priced ones cost, and how many had no price. */
export interface CostTally {
  usd: number;
  /** Calls of models the price table does not know: their cost is unknown, not zero. */
  unpricedCalls: number;
  /** Those models, `provider/model`. */
  readonly unpricedModels: Set<string>;
}

/** A tally as `agent_end` and `run_end` record it. */
export function costSummary(tally: CostTally): {
  usd: number;
  unpriced_calls: number;
  unpriced_models?: string[];
} {
  return {
    usd: roundDollars(tally.usd),
    unpriced_calls: tally.unpricedCalls,
    ...(tally.unpricedModels.size === 0 ? {} : { unpriced_models: [...tally.unpricedModels] }),
  };
}

/** Counts a model call's cost (undefined: the model has no price) into the tallies. */
export function countCost(
  tallies: readonly CostTally[],
  cost: number | undefined,
  model: string,
): void {
  for (const tally of tallies) {
    if (cost === undefined) {
      tally.unpricedCalls++;
      tally.unpricedModels.add(model);
    } else tally.usd += cost;
  }
}

/** Dollars for people: `$0.0021`, `$1.25`; at most six decimals, no trailing zeros. */
export function formatUsd(usd: number): string {
  return `$${usd.toFixed(6).replace(/\.?0+$/, '')}`;
}

/**
 * A run's or an agent's cost for people: `$0.0021`, or with calls of unpriced models
 * `$0.0021 + 2 calls of unpriced models (fake/gpt-4o)`, or `cost unknown: no price for …`.
 */
export function describeCost(cost: {
  readonly usd: number;
  readonly unpriced_calls: number;
  readonly unpriced_models?: readonly string[] | undefined;
}): string {
  const models = (cost.unpriced_models ?? []).join(', ');
  if (cost.unpriced_calls === 0) return formatUsd(cost.usd);
  if (cost.usd === 0) return `cost unknown: no price for ${models}`;
  return `${formatUsd(cost.usd)} + ${cost.unpriced_calls} call${cost.unpriced_calls === 1 ? '' : 's'} of unpriced models (${models})`;
}

/** A tally of nothing yet. */
export function emptyTally(): CostTally {
  return { usd: 0, unpricedCalls: 0, unpricedModels: new Set() };
}
