/**
 * `@agent-trace/core/cache`: answers of models kept and given again, for one model
 * (`cachedModel`) or every model call of a run (the `cache` run option); cassettes build on it.
 */
export { CacheMissError, cachedModel } from './features/cache/model-cache.js';
export type {
  CachedAnswer,
  CacheMode,
  ModelCache,
  RunCache,
} from './features/cache/model-cache.js';
export { memoryCache } from './features/cache/memory-cache.js';
export type { MemoryCacheOptions } from './features/cache/memory-cache.js';
export { requestContent, requestKey } from './features/cache/request-key.js';
export type { CacheRunOptions } from './features/cache/cache-feature.js';
