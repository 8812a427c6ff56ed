/**
 * `@agent-trace/core/termination`: termination policies, which decide after each model answer
 * whether the turn goes on, ends or pauses (`agent({ terminationPolicy })`), and the stop conditions
 * a turn ends on (`agent({ stopWhen: hasToolCall('finish') })`).
 */
export { createTerminationPolicy } from './kernel/termination/create-termination-policy.js';
export { duplicateToolCallPolicy } from './kernel/termination/duplicate-tool-call-policy.js';
export { standardPolicy } from './kernel/termination/termination-policy.js';
export type {
  TerminationContext,
  TerminationDecision,
  TerminationPolicy,
} from './kernel/termination/termination-policy.js';
export { tokenBudgetPolicy } from './kernel/termination/token-budget-policy.js';
export { toolCallLimitPolicy } from './kernel/termination/tool-call-limit-policy.js';
export { hasToolCall, stepCountIs } from './kernel/termination/stop-condition.js';
export type { StopCondition, StopConditionState } from './kernel/termination/stop-condition.js';
export { limitPolicy } from './kernel/termination/limit-policy.js';
export type { LimitStop, ToolsDecision } from './kernel/termination/limit-policy.js';
