import { ConfigurationError } from '../errors/configuration-error.js';
import { roundDollars } from '../cost/cost.js';
import { estimateRequestTokens } from '../cost/estimate-tokens.js';
import { priceProvider } from '../cost/prices.js';
import type { AgentTurn } from './agent-turn.js';
import type { ModelCallInput } from './call-model.js';
import { budgetStop, type BudgetState, type Stop } from './next-step.js';
import type { RunState } from './run-state.js';

/** The run's cost limits as they stand. */
export function budgetStates(state: RunState): BudgetState[] {
  return state.budgets.map(budget => ({
    name: budget.name,
    limitUsd: budget.limitUsd,
    spentUsd: roundDollars(budget.spentUsd()),
  }));
}

/** The first cost limit the run has spent past, if any. */
export function overBudget(state: RunState): BudgetState | undefined {
  if (state.budgets.length === 0) return undefined;
  return budgetStates(state).find(budget => budget.spentUsd > budget.limitUsd);
}

/**
 * Before a model call under a cost limit: estimates the request's input cost and stops the turn
 * when it would go past a limit. A model with no price cannot be kept to a budget: that is a
 * `ConfigurationError`, saying which price to add.
 */
export async function estimatedBudgetStop(
  turn: AgentTurn,
  call: ModelCallInput,
): Promise<Stop | undefined> {
  const { state, agent } = turn;
  const model = state.overrides.model?.(agent, agent.model) ?? agent.model;
  const priced = state.prices.priceOf(model.provider, model.modelId);
  if (priced === undefined) {
    throw new ConfigurationError({
      option: 'prices',
      message: `The run has a cost limit, but model '${model.modelId}' (${model.provider}) of agent '${agent.name}' has no price, so its cost cannot be counted. Add one: run(…, { prices: { '${priceProvider(model.provider)}:${model.modelId}': { inputPerMillion, outputPerMillion, source, asOf } } }).`,
    });
  }
  const { tokens, counter } = await estimateRequestTokens(model, call);
  const usd = roundDollars((tokens * priced.price.inputPerMillion) / 1_000_000);
  return budgetStop(budgetStates(state), { usd, tokens, counter });
}
