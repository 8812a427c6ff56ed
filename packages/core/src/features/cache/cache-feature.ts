import type { LanguageModel } from '../../kernel/model/language-model.js';
import type { Feature } from '../../kernel/run/seam/feature.js';
import { cachedModel, type RunCache } from './model-cache.js';

/** The run option of the cache feature. */
export interface CacheRunOptions {
  /**
   * Answers every model call of the run (every agent's, handoffs and delegates included) from a
   * cache, as `cachedModel` does for one model: a `ModelCache` (`memoryCache()`, a cassette), or
   * one with its mode (`auto`, `record`, `replay`, `off`). @defaultValue none
   */
  cache?: RunCache;
}

/**
 * The cache as a feature of the run (`cache`): every model call of the run — every agent's,
 * handoffs', delegates' and routers', fallbacks included — goes through {@link cachedModel} with
 * the one cache, without wrapping each agent's model.
 */
export const cacheFeature: Feature<CacheRunOptions> = {
  name: 'cache',
  version: 2,
  forRun({ options }) {
    const setting = options.cache;
    if (setting === undefined) return undefined;
    const { cache, mode } = 'cache' in setting ? setting : { cache: setting, mode: undefined };
    const cached = new WeakMap<LanguageModel, LanguageModel>();
    return {
      model({ model }) {
        let found = cached.get(model);
        if (found === undefined) {
          found = cachedModel(model, mode === undefined ? { cache } : { cache, mode });
          cached.set(model, found);
        }
        return found;
      },
    };
  },
};
