/**
 * `@agent-trace/core/cost`: prices of models, what calls cost, and budgets shared between runs.
 * Every run prices its calls (the known prices, with `prices` over them); `maxCostUsd` and
 * `budget` keep it to a limit.
 */
export { costOf } from './features/cost/cost-of.js';
export { describeCost, formatUsd } from './kernel/protocol/cost-tally.js';
export { defaultPrices, PriceTable } from './features/cost/prices.js';
export type { ModelPrice } from './features/cost/prices.js';
export { costBudget } from './features/cost/budget.js';
export type { CostBudget } from './features/cost/budget.js';
export { estimateRequestTokens } from './features/cost/estimate-tokens.js';
export type { TokenCounter } from './features/cost/estimate-tokens.js';
export type { CostRunOptions } from './features/cost/cost-options.js';
