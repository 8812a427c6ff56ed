import { ConfigurationError } from '../../kernel/errors/configuration-error.js';
import { roundDollars } from '../../kernel/protocol/cost-tally.js';

/** A cost budget shared by the runs that are given it, across sessions: made with {@link costBudget}. */
export interface CostBudget {
  readonly name: string;
  readonly limitUsd: number;
  /** US dollars spent by the runs so far (priced model calls). */
  readonly spentUsd: number;
  /** Counts a model call's cost. */
  spend(usd: number): void;
}

/**
 * A budget several runs share (a user's daily allowance, a test suite's): pass it as
 * `run(…, { budget })`. Before each model call a run checks that the budget can pay for the
 * request (estimated from its tokens); after the call it counts the real cost. A run that would
 * go past it stops with `budget_exceeded`.
 *
 * @example
 * ```ts
 * const daily = costBudget({ name: 'daily', limitUsd: 5 });
 * await run(desk, question, { budget: daily });
 * ```
 */
export function costBudget({
  name = 'budget',
  limitUsd,
}: {
  name?: string;
  limitUsd: number;
}): CostBudget {
  if (!Number.isFinite(limitUsd) || limitUsd < 0)
    throw new ConfigurationError({
      option: 'limitUsd',
      message: `Invalid limitUsd for budget '${name}': expected US dollars, 0 or more (actual: ${String(limitUsd)}).`,
    });
  let spent = 0;
  return {
    name,
    limitUsd,
    get spentUsd() {
      return roundDollars(spent);
    },
    spend(usd) {
      spent += usd;
    },
  };
}
