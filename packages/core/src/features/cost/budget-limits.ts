import type { CostRunOptions } from './cost-options.js';
import type { AnyAgent } from '../../kernel/agent/agent.js';
import type { LanguageModel } from '../../kernel/model/language-model.js';
import type { ModelCallRequest, Stop, ToolCheck } from '../../kernel/run/seam/feature.js';
import type { StopLimit } from '../../kernel/protocol/stop-reason.js';
import { ConfigurationError } from '../../kernel/errors/configuration-error.js';
import { formatUsd, roundDollars, type CostTally } from '../../kernel/protocol/cost-tally.js';
import { estimateRequestTokens } from './estimate-tokens.js';
import { priceProvider, type PriceTable } from './prices.js';

/** A cost limit a run keeps: how much may be spent, and how much is. */
export interface BudgetLimit {
  /** `maxCostUsd`, or the shared budget's name. */
  readonly name: string;
  readonly limitUsd: number;
  spentUsd(): number;
  /** A budget runs share (`costBudget`), whose spending is not the run's alone. */
  readonly shared: boolean;
}

/** A cost limit and what has been spent against it, in US dollars. */
export interface BudgetState {
  readonly name: string;
  readonly limitUsd: number;
  readonly spentUsd: number;
  readonly shared: boolean;
}

/** The cost limits a run keeps: its `maxCostUsd` (on the run's total) and a shared budget. */
export function budgetsOf(
  options: CostRunOptions,
  totals: { readonly cost: CostTally },
  /** The shared budget (`options.budget`) as the run reads it: kept state. */
  shared: Pick<BudgetLimit, 'name' | 'limitUsd' | 'spentUsd'> | undefined,
): BudgetLimit[] {
  const budgets: BudgetLimit[] = [];
  const { maxCostUsd } = options;
  if (maxCostUsd !== undefined) {
    if (!Number.isFinite(maxCostUsd) || maxCostUsd < 0)
      throw new ConfigurationError({
        option: 'maxCostUsd',
        message: `Invalid maxCostUsd: expected US dollars, 0 or more (actual: ${String(maxCostUsd)}).`,
      });
    budgets.push({
      name: 'maxCostUsd',
      limitUsd: maxCostUsd,
      spentUsd: () => totals.cost.usd,
      shared: false,
    });
  }
  if (shared !== undefined)
    budgets.push({
      name: shared.name,
      limitUsd: shared.limitUsd,
      spentUsd: () => shared.spentUsd(),
      shared: true,
    });
  return budgets;
}

/** The run's cost limits as they stand. */
export function budgetStates(budgets: readonly BudgetLimit[]): BudgetState[] {
  return budgets.map(budget => ({
    name: budget.name,
    limitUsd: budget.limitUsd,
    spentUsd: roundDollars(budget.spentUsd()),
    shared: budget.shared,
  }));
}

/** The first cost limit the run has spent past, if any. */
export function overBudget(budgets: readonly BudgetLimit[]): BudgetState | undefined {
  if (budgets.length === 0) return undefined;
  return budgetStates(budgets).find(budget => budget.spentUsd > budget.limitUsd);
}

/** The decision's check when the run has spent past `over`: it runs no more tools. */
export function overBudgetCheck(over: BudgetState): ToolCheck {
  return {
    on: 'asked',
    check: () => ({
      kind: 'stop',
      reason: 'budget_exceeded',
      limit: limitOf(over),
      detail: `the run has spent ${formatUsd(over.spentUsd)} of ${over.name} ${formatUsd(over.limitUsd)} and asked for more tools`,
    }),
  };
}

/**
 * Before a model call: the stop when the call's estimated input cost would take a budget past its
 * limit (the call is not made).
 */
export function budgetStop(
  budgets: readonly BudgetState[],
  estimate: { readonly usd: number; readonly tokens: number; readonly counter: string },
): Stop | undefined {
  const over = budgets.find(budget => budget.spentUsd + estimate.usd > budget.limitUsd);
  if (over === undefined) return undefined;
  return {
    kind: 'stop',
    reason: 'budget_exceeded',
    limit: limitOf(over),
    detail: `the next model call was not made: its ${estimate.tokens} input tokens (counted with ${estimate.counter}) would cost about ${formatUsd(estimate.usd)}, and ${formatUsd(over.spentUsd)} of ${over.name} ${formatUsd(over.limitUsd)} is spent`,
  };
}

/**
 * Before a model call under a cost limit: estimates the request's input cost and stops the turn
 * when it would go past a limit. A model with no price cannot be kept to a budget: that is a
 * `ConfigurationError`, saying which price to add.
 */
export async function estimatedBudgetStop(
  agent: AnyAgent,
  model: LanguageModel,
  request: ModelCallRequest,
  prices: PriceTable,
  budgets: readonly BudgetLimit[],
): Promise<Stop | undefined> {
  const priced = prices.priceOf(model.provider, model.modelId);
  if (priced === undefined) {
    throw new ConfigurationError({
      option: 'prices',
      message: `The run has a cost limit, but model '${model.modelId}' (${model.provider}) of agent '${agent.name}' has no price, so its cost cannot be counted. Add one: run(…, { prices: { '${priceProvider(model.provider)}:${model.modelId}': { inputPerMillion, outputPerMillion, source, asOf } } }).`,
    });
  }
  const { tokens, counter } = await estimateRequestTokens(model, request);
  const usd = roundDollars((tokens * priced.price.inputPerMillion) / 1_000_000);
  return budgetStop(budgetStates(budgets), { usd, tokens, counter });
}

/** The limit `over` stopped a run at: a shared budget says how much of it all its runs had spent. */
function limitOf(over: BudgetState): StopLimit {
  return over.shared
    ? { name: over.name, value: over.limitUsd, spent: over.spentUsd }
    : { name: over.name, value: over.limitUsd };
}
