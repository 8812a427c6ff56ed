/**
 * `@agent-trace/core/router`: agents whose turn is choosing another: by rules (`ruleRouter`) or
 * by asking a model (`modelRouter`), the rules as a fallback.
 */
export { modelRouter } from './features/router/model-router.js';
export type { ModelRouterOptions } from './features/router/model-router.js';
export { ruleRouter } from './features/router/rule-router.js';
export type { RouteChoice, RouteRule, RouterSpec } from './kernel/agent/router.js';
export type { RouterOptions } from './features/router/rule-router.js';
