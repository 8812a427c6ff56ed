import type { CostBudget } from './budget.js';
import type { ModelPrice, PriceTable } from './prices.js';

/** The run options of the cost feature: prices, and the limits a run keeps. */
export interface CostRunOptions {
  /**
   * Prices of models, by `<provider>:<model>` (e.g. `openai:gpt-4o`), over the ones agent-trace
   * knows; or a whole `PriceTable`. A model with no price has an unknown cost, and the trace says
   * so. @defaultValue the known prices (`defaultPrices`)
   */
  prices?: PriceTable | Readonly<Record<string, ModelPrice>>;
  /**
   * US dollars the run's model calls may cost. Before each call the request's cost is estimated
   * from its tokens; a call that would go past the limit is not made, and after each call the real
   * cost is counted: a run past it stops with `budget_exceeded` instead of running more tools (an
   * answer that crosses it is kept). Every model of the run needs a price. @defaultValue no limit
   */
  maxCostUsd?: number;
  /** A budget shared with other runs (`costBudget()`), kept the same way. @defaultValue none */
  budget?: CostBudget;
}
