import { estimateRequestTokens } from '../cost/estimate-tokens.js';
import { priceProvider } from '../cost/prices.js';
import { ModelCallError } from '../../kernel/errors/model-call-error.js';
import type { Feature, ModelAttemptHold, ModelCallAt } from '../../kernel/run/seam/feature.js';
import type { RateLimits } from './rate-limits.js';

/** The run option of the rate-limit feature. */
export interface RateLimitRunOptions {
  /** Per-provider request and token limits shared with other runs (`rateLimits()`). @defaultValue none */
  rateLimits?: RateLimits;
}

/**
 * Providers' rate limits as a feature of the run (`rateLimits`, shared with other runs): before
 * each model attempt the run waits until the provider has room in its last minute, tracing the
 * wait; after it, the real token count is settled, or a `retry-after` pauses everyone.
 */
export const rateLimitFeature: Feature<RateLimitRunOptions> = {
  name: 'rate-limits',
  version: 2,
  forRun: ({ options }) => {
    const limits = options.rateLimits;
    return limits === undefined ? undefined : { modelAttempt: at => waitForRoom(limits, at) };
  },
};

/** Waits until the model's provider has room; gives the call's place, to settle after. */
async function waitForRoom(
  limits: RateLimits,
  at: ModelCallAt,
): Promise<ModelAttemptHold | undefined> {
  const { model, request } = at;
  const limiter = limits.limiterFor(model.provider);
  if (limiter === undefined) return undefined;
  const tokens = limiter.countsTokens ? (await estimateRequestTokens(model, request)).tokens : 0;
  const now = at.clock.now();
  const { reservation, reason, byOthers } = limiter.reserve(now, tokens, at.runId);
  const waitMs = reservation.atMs - now;
  if (waitMs > 0) {
    at.record('rate_limit_wait', {
      provider: priceProvider(model.provider),
      model: model.modelId,
      waited_ms: waitMs,
      reason: reason ?? 'requests',
      ...(byOthers ? { by_others: true as const } : {}),
    });
    await at.wait(waitMs);
  }
  return {
    settle(outcome) {
      if ('response' in outcome) {
        const { usage } = outcome.response;
        limiter.settle(reservation, usage.promptTokens + usage.completionTokens);
        return;
      }
      const { error } = outcome;
      if (
        error instanceof ModelCallError &&
        error.kind === 'rate_limit' &&
        error.retryAfterMs !== undefined
      )
        limiter.pauseUntil(at.clock.now() + error.retryAfterMs, at.runId);
    },
  };
}
