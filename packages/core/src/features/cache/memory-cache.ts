import { ConfigurationError } from '../../kernel/errors/configuration-error.js';
import { systemClock, type Clock } from '../../kernel/util/clock.js';
import type { CachedAnswer, ModelCache } from './model-cache.js';

/** Options of {@link memoryCache}. */
export interface MemoryCacheOptions {
  /** Answers kept; past it the least recently used goes. @defaultValue 1000 */
  maxEntries?: number;
  /** How long an answer stays usable, in milliseconds. @defaultValue forever */
  ttlMs?: number;
  /** Where the time comes from (tests: a virtual clock). @defaultValue the system clock */
  clock?: Clock;
}

/**
 * Answers kept in memory, least recently used first out, each for `ttlMs`: a process-wide cache
 * of model answers for `cachedModel`. Its `size` says how many it holds.
 */
export function memoryCache(
  options: MemoryCacheOptions = {},
): ModelCache & { readonly size: number } {
  const { maxEntries = 1000, ttlMs, clock = systemClock } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new ConfigurationError({
      option: 'maxEntries',
      message: `Invalid maxEntries for memoryCache: expected a whole number above 0 (actual: ${String(maxEntries)}).`,
    });
  const entries = new Map<string, { answer: CachedAnswer; expiresAt: number }>();
  return {
    get size() {
      return entries.size;
    },
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      if (entry.expiresAt <= clock.now()) return undefined;
      entries.set(key, entry); // now the most recently used
      return entry.answer;
    },
    set(answer) {
      entries.delete(answer.key);
      entries.set(answer.key, {
        answer,
        expiresAt: ttlMs === undefined ? Infinity : clock.now() + ttlMs,
      });
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
      }
    },
  };
}
