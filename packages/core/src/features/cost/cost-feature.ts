import type { ModelResponse } from '../../kernel/model/language-model.js';
import type { Feature, FeatureHooks, LlmIdentity } from '../../kernel/run/seam/feature.js';
import type { CostBudget } from './budget.js';
import {
  budgetsOf,
  estimatedBudgetStop,
  overBudget,
  overBudgetCheck,
  type BudgetLimit,
} from './budget-limits.js';
import { costOf } from './cost-of.js';
import type { CostRunOptions } from './cost-options.js';
import { PriceTable } from './prices.js';

/** The known prices, as a run without its own uses them: built once. */
const defaultPriceTable = new PriceTable();

/**
 * What model calls cost, and the limits a run keeps on it: every answered call is priced (the
 * known prices, with the run's `prices` over them) and told to a shared `budget`; with
 * `maxCostUsd` or a `budget`, a call that would go past a limit is not made, and a run past one
 * runs no more tools.
 */
export const costFeature: Feature<CostRunOptions> = {
  name: 'cost',
  version: 2,
  forRun({ options, totals }) {
    const prices =
      options.prices === undefined
        ? defaultPriceTable
        : options.prices instanceof PriceTable
          ? options.prices
          : new PriceTable(options.prices);
    const budgets = budgetsOf(options, totals);
    const hooks: FeatureHooks = {
      priceCall: ({ identity, response }) => priceCall(identity, response, prices, options.budget),
    };
    if (budgets.length > 0) limitSpending(hooks, prices, budgets);
    return hooks;
  },
};

/** The hooks of a run with cost limits: before each model call, and before tools. */
function limitSpending(
  hooks: FeatureHooks,
  prices: PriceTable,
  budgets: readonly BudgetLimit[],
): void {
  hooks.beforeModelCall = ({ agent, model, request }) =>
    estimatedBudgetStop(agent, model, request, prices, budgets);
  hooks.toolCheck = () => {
    const over = overBudget(budgets);
    return over === undefined ? undefined : overBudgetCheck(over);
  };
}

/** What an answered call cost (undefined: the model has no price), told to a shared budget. */
function priceCall(
  identity: LlmIdentity,
  response: ModelResponse,
  prices: PriceTable,
  shared: CostBudget | undefined,
): number | undefined {
  const priced = prices.priceOf(identity.provider, identity.model);
  // An answer from a cache costs nothing, priced or not.
  const cost =
    response.cacheHit === true
      ? 0
      : priced === undefined
        ? undefined
        : costOf(response.usage, priced.price);
  if (cost !== undefined) shared?.spend(cost);
  return cost;
}
