import { estimateRequestTokens } from '../cost/estimate-tokens.js';
import { ModelCallError } from '../errors/model-call-error.js';
import type { LanguageModel, ModelResponse } from '../model/language-model.js';
import type { RateLimiter, Reservation } from '../rate-limit/rate-limiter.js';
import { priceProvider } from '../cost/prices.js';
import { sleepOn } from '../util/clock.js';
import type { ModelCallInput } from './call-model.js';
import type { RunState } from './run-state.js';

/**
 * Before a model call: waits until the model's provider has room in its last minute (when the
 * run has rate limits), tracing the wait. Gives the call's reservation, to settle after.
 */
export async function waitForRateLimit(
  model: LanguageModel,
  input: ModelCallInput,
  state: RunState,
): Promise<Held | undefined> {
  const limiter = state.rateLimits?.limiterFor(model.provider);
  if (limiter === undefined) return undefined;
  const tokens = limiter.countsTokens ? (await estimateRequestTokens(model, input)).tokens : 0;
  const now = state.clock.now();
  const { reservation, reason } = limiter.reserve(now, tokens);
  const waitMs = reservation.atMs - now;
  if (waitMs > 0) {
    state.tracer.point('rate_limit_wait', input.agentSpan, {
      provider: priceProvider(model.provider),
      model: model.modelId,
      waited_ms: waitMs,
      reason: reason ?? 'requests',
    });
    await sleepOn(state.clock, waitMs, state.signal);
  }
  return { limiter, reservation };
}

/** A call's place with its provider's limiter. */
export interface Held {
  readonly limiter: RateLimiter;
  readonly reservation: Reservation;
}

/** After a model call: its real token count, or the provider's `retry-after` for everyone. */
export function settleRateLimit(
  held: Held | undefined,
  outcome: { readonly response: ModelResponse } | { readonly error: unknown },
  state: RunState,
): void {
  if (held === undefined) return;
  const { limiter, reservation } = held;
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
    limiter.pauseUntil(state.clock.now() + error.retryAfterMs);
}
