import { limitPolicy } from './limit-policy.js';
import type { TerminationPolicy } from './termination-policy.js';

/**
 * Wraps a policy: once the run has used more than `maxTotalTokens` (prompt + completion), it stops
 * with `budget_exceeded` instead of running more tools and calling the model again. A final answer
 * that crosses the budget is still returned.
 */
export function tokenBudgetPolicy(
  base: TerminationPolicy,
  { maxTotalTokens }: { maxTotalTokens: number },
): TerminationPolicy {
  // An answer already paid for is kept; the budget stops only what would cost more.
  return limitPolicy(base, (_decision, context) => {
    const used = context.usage.promptTokens + context.usage.completionTokens;
    if (used <= maxTotalTokens) return undefined;
    return {
      kind: 'stop',
      reason: 'budget_exceeded',
      limit: { name: 'maxTotalTokens', value: maxTotalTokens },
      detail: `the run has used ${used} tokens; the budget is ${maxTotalTokens}`,
    };
  });
}
