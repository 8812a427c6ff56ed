import type { ModelResponse } from '../../kernel/model/language-model.js';
import type {
  Feature,
  FeatureContext,
  FeatureHooks,
  KeptState,
  LlmIdentity,
} from '../../kernel/run/seam/feature.js';
import { roundDollars } from '../../kernel/protocol/cost-tally.js';
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
  forRun({ options, totals, kept }) {
    const prices =
      options.prices === undefined
        ? defaultPriceTable
        : options.prices instanceof PriceTable
          ? options.prices
          : new PriceTable(options.prices);
    const shared = options.budget === undefined ? undefined : new KeptBudget(options.budget, kept);
    const budgets = budgetsOf(options, totals, shared);
    const hooks: FeatureHooks = {
      priceCall: ({ identity, response }) => priceCall(identity, response, prices, shared),
    };
    if (budgets.length > 0) limitSpending(hooks, prices, budgets, shared);
    return hooks;
  },
};

/** The hooks of a run with cost limits: before each model call, and before tools. */
function limitSpending(
  hooks: FeatureHooks,
  prices: PriceTable,
  budgets: readonly BudgetLimit[],
  shared: KeptBudget | undefined,
): void {
  hooks.beforeModelCall = at => {
    shared?.read(at);
    return estimatedBudgetStop(at.agent, at.model, at.request, prices, budgets);
  };
  hooks.toolCheck = at => {
    shared?.read(at);
    const over = overBudget(budgets);
    return over === undefined ? undefined : overBudgetCheck(over);
  };
}

/**
 * A shared budget as one run sees it: kept state, which other runs spend too. The run reads it
 * (through `kept`) before each decision on it, so the recording keeps what other runs had spent
 * then, and a rerun decides on that; what the run spends itself it adds.
 */
class KeptBudget {
  readonly #key: string;
  /** What the run knows is spent: as last read, with its own spending since. */
  #spentUsd: number;

  constructor(
    readonly budget: CostBudget,
    private readonly kept: KeptState,
  ) {
    this.#key = `budget ${budget.name}`;
    this.#spentUsd = kept.replaying ? 0 : budget.spentUsd;
  }

  get name(): string {
    return this.budget.name;
  }

  get limitUsd(): number {
    return this.budget.limitUsd;
  }

  /** What is spent, for a decision. */
  spentUsd(): number {
    return this.#spentUsd;
  }

  /** Reads what the budget's runs have spent, before a decision on it. */
  read(at: FeatureContext): void {
    this.#spentUsd = this.kept.read(at, this.#key, this.budget.spentUsd, 0);
  }

  /** The run spent `usd` of it. */
  spend(usd: number): void {
    this.budget.spend(usd);
    this.#spentUsd = roundDollars(this.#spentUsd + usd);
    this.kept.wrote(this.#key, this.#spentUsd);
  }
}

/** What an answered call cost (undefined: the model has no price), told to a shared budget. */
function priceCall(
  identity: LlmIdentity,
  response: ModelResponse,
  prices: PriceTable,
  shared: KeptBudget | undefined,
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
