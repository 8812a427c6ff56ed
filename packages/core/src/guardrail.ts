/**
 * `@agent-trace/core/guardrail`: checks of an agent's input, answer and tool calls (given to
 * `agent({ guardrails })`), the built-in ones, and what a guardrail of your own implements.
 */
export { blockedPatternsGuardrail } from './features/guardrail/blocked-patterns-guardrail.js';
export { maxLengthGuardrail } from './features/guardrail/max-length-guardrail.js';
export { schemaGuardrail } from './features/guardrail/schema-guardrail.js';
export { tokenGuard } from './features/guardrail/token-guard.js';
export type { TokenGuard } from './features/guardrail/token-guard.js';
export { estimateTokens } from './kernel/agent/guardrail.js';
export type { AgentGuardrails } from './features/guardrail/guardrail-options.js';
export type {
  Guardrail,
  GuardrailAction,
  GuardrailCheck,
  GuardrailFinding,
  GuardrailStage,
  GuardrailVerdict,
} from './kernel/agent/guardrail.js';
