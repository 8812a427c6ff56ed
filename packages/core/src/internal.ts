/**
 * Helpers agent-trace's own packages share (`@agent-trace/core/internal`). They are not part of
 * the public API and may change in any release: applications use `@agent-trace/core`.
 */
export { backoffDelayMs } from './resilience/backoff.js';
export type { BackoffOptions } from './resilience/backoff.js';
export { CircuitBreaker, CircuitBreakers } from './resilience/circuit-breaker.js';
export type { CircuitBreakerOptions, CircuitState } from './resilience/circuit-breaker.js';
export { partsOfResponse } from './model/response-parts.js';
export { placeholderFor } from './redaction/redactor.js';
export { ToolRegistry } from './tool/tool-registry.js';
export { compileSchemaCheck } from './trace/compile-schema-check.js';
export type { SchemaCheck } from './trace/compile-schema-check.js';
export { canonicalJson } from './util/canonical-json.js';
export { defined } from './util/defined.js';
export { sleepOn } from './util/clock.js';
export { importPeer } from './util/import-peer.js';
export { ordinal } from './util/ordinal.js';
