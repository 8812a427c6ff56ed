/**
 * `@agent-trace/core/rate-limit`: per-provider request and token limits shared by runs
 * (`rateLimits()`, given to a run as `rateLimits`).
 */
export { rateLimits } from './features/rate-limit/rate-limits.js';
export type { RateLimits } from './features/rate-limit/rate-limits.js';
export type {
  Placement,
  ProviderLimiter,
  RateLimit,
  Reservation,
} from './features/rate-limit/rate-limiter.js';
export type { RateLimitRunOptions } from './features/rate-limit/rate-limit-feature.js';
