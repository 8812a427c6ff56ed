import type { TraceEvent } from '@agent-trace/core';
import type { ProviderLimiter, RateLimits } from '@agent-trace/core/rate-limit';

/** The order the run made an event in. */
const madeAt = (event: TraceEvent): number => event.made ?? event.seq;

/**
 * The rate limits a recorded run reruns under: the caller's, where the rerun's own calls decide
 * every wait again, except that a wait other runs' calls made longer in the recording (its
 * `rate_limit_wait` says `by_others`) lasts at least as long: those calls are the outside world,
 * which a rerun replays. The n-th call a provider's limiter is asked for is the recording's n-th
 * model attempt of that provider.
 */
export function recordedRateLimits(
  recorded: readonly TraceEvent[],
  given: RateLimits | undefined,
): { rateLimits?: RateLimits } {
  if (given === undefined) return {};
  const waits = othersWaits(recorded, given);
  if (waits.size === 0) return { rateLimits: given };
  const replayed = new Map<ProviderLimiter, ProviderLimiter>();
  return {
    rateLimits: {
      limiterFor(provider) {
        const limiter = given.limiterFor(provider);
        const recordedWaits = limiter === undefined ? undefined : waits.get(limiter);
        if (limiter === undefined || recordedWaits === undefined) return limiter;
        let found = replayed.get(limiter);
        if (found === undefined) {
          found = replayedLimiter(limiter, recordedWaits);
          replayed.set(limiter, found);
        }
        return found;
      },
    },
  };
}

/** For each limiter, the waits others made longer, by the index of the attempt they held. */
function othersWaits(
  recorded: readonly TraceEvent[],
  given: RateLimits,
): Map<ProviderLimiter, Map<number, number>> {
  const inOrder = [...recorded].sort((a, b) => madeAt(a) - madeAt(b));
  const waits = new Map<ProviderLimiter, Map<number, number>>();
  const asked = new Map<ProviderLimiter, number>();
  // A wait held the next attempt of its agent's turn.
  const pending = new Map<string, number>();
  for (const event of inOrder) {
    const turn = event.parent_span_id ?? '';
    if (event.event === 'rate_limit_wait' && event.by_others === true)
      pending.set(turn, event.waited_ms);
    if (event.event !== 'llm_start') continue;
    const limiter = given.limiterFor(event.provider);
    if (limiter === undefined) continue;
    const index = asked.get(limiter) ?? 0;
    asked.set(limiter, index + 1);
    const waited = pending.get(turn);
    if (waited === undefined) continue;
    pending.delete(turn);
    const byIndex = waits.get(limiter) ?? new Map<number, number>();
    byIndex.set(index, waited);
    waits.set(limiter, byIndex);
  }
  return waits;
}

/** `limiter`, its n-th call placed no earlier than the recorded wait others made. */
function replayedLimiter(limiter: ProviderLimiter, waits: Map<number, number>): ProviderLimiter {
  let asked = 0;
  return {
    get countsTokens() {
      return limiter.countsTokens;
    },
    reserve(nowMs, tokens, owner) {
      const waited = waits.get(asked++);
      // Asked as late as the recorded wait ended: the rerun's own calls may hold it longer still.
      const placed = limiter.reserve(nowMs + (waited ?? 0), tokens, owner);
      return waited === undefined ? placed : { ...placed, reason: placed.reason ?? 'requests' };
    },
    settle: (reservation, tokens) => limiter.settle(reservation, tokens),
    pauseUntil: (untilMs, owner) => limiter.pauseUntil(untilMs, owner),
  };
}
