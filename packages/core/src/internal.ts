/**
 * What this repository's own tests reach inside core for (`@agent-trace/core/internal`). No
 * package uses it (lint holds that): bridges and extensions use `@agent-trace/core/record` and
 * `@agent-trace/core/util`. It may change in any release.
 */
export { CircuitBreaker, CircuitBreakers } from './features/resilience/circuit-breaker.js';
export type { CircuitBreakerOptions, CircuitState } from './features/resilience/circuit-breaker.js';
export { placeholderFor } from './features/redaction/redactor.js';
export { ToolRegistry } from './kernel/tool/tool-registry.js';
export { compileSchemaCheck } from './kernel/trace/compile-schema-check.js';
export type { SchemaCheck } from './kernel/trace/compile-schema-check.js';
export type { ResolvedAgentLimits, ResolvedResilience } from './kernel/agent/agent.js';
export type { ResolvedHandoff } from './kernel/agent/handoff.js';
export type { KernelOptions } from './kernel/run/frame/kernel-options.js';
