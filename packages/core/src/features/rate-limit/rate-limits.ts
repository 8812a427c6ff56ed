import { ConfigurationError } from '../../kernel/errors/configuration-error.js';
import { priceProvider } from '../cost/prices.js';
import { RateLimiter, type ProviderLimiter, type RateLimit } from './rate-limiter.js';

/** The rate limits of a process, by provider: made with {@link rateLimits}, shared by runs. */
export interface RateLimits {
  /** The limiter of the provider serving `provider` models (`openai.chat` → `openai`), if limited. */
  limiterFor(provider: string): ProviderLimiter | undefined;
}

/**
 * Per-provider limits (`openai`, `anthropic`, or a model's `provider`), shared by every run given
 * them: pass the same object to concurrent runs, `run(…, { rateLimits })`. A model call waits until
 * its provider's last minute has room, in the order calls ask; a wait is traced with its length
 * (`rate_limit_wait`) and ends at once when the run is aborted. A provider's 429 `retry-after`
 * holds back every call to it until it has passed.
 *
 * @example
 * ```ts
 * const limits = rateLimits({ openai: { requestsPerMinute: 500, tokensPerMinute: 200_000 } });
 * await Promise.all(questions.map(question => run(desk, question, { rateLimits: limits })));
 * ```
 */
export function rateLimits(limits: Readonly<Record<string, RateLimit>>): RateLimits {
  const limiters = new Map<string, RateLimiter>();
  for (const [provider, limit] of Object.entries(limits)) {
    for (const [name, value] of Object.entries(limit)) {
      if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0))
        throw new ConfigurationError({
          option: 'rateLimits',
          message: `Invalid ${name} for provider '${provider}': expected a whole number above 0 (actual: ${String(value)}).`,
        });
    }
    limiters.set(provider, new RateLimiter(limit));
  }
  return {
    limiterFor: provider => limiters.get(priceProvider(provider)) ?? limiters.get(provider),
  };
}
