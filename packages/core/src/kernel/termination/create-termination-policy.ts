import { duplicateToolCallPolicy } from './duplicate-tool-call-policy.js';
import { standardPolicy, type TerminationPolicy } from './termination-policy.js';
import { tokenBudgetPolicy } from './token-budget-policy.js';
import { toolCallLimitPolicy } from './tool-call-limit-policy.js';

/**
 * The default policy of an agent: the standard policy, decorated with the duplicate-call detector,
 * the per-tool limit and, when set, the token budget.
 */
export function createTerminationPolicy(limits: {
  maxDuplicateToolCalls: number;
  maxToolCallsPerTool: number;
  maxTotalTokens: number | undefined;
}): TerminationPolicy {
  let policy = duplicateToolCallPolicy(standardPolicy, limits);
  policy = toolCallLimitPolicy(policy, limits);
  if (limits.maxTotalTokens !== undefined) {
    policy = tokenBudgetPolicy(policy, { maxTotalTokens: limits.maxTotalTokens });
  }
  return policy;
}
