import type { TraceEvent } from '@agent-trace/core';
import type { ProviderLimiter, RateLimits } from '@agent-trace/core/rate-limit';
import { madeOf } from './made-order.js';
import type { Recording } from './recording.js';

/** What the recording says of one wait for a provider's limit. */
interface RecordedWait {
  /** Other runs' calls made it longer: it lasts at least `waitedMs`. */
  readonly byOthers: boolean;
  readonly waitedMs: number;
  /** The run's stop from outside cut it: it ends when the replayed stop comes, not by time. */
  readonly cut: boolean;
}

/** How far off a wait the recorded stop cut is placed: the replayed stop ends it first. */
const untilTheStopMs = 1e12;

/**
 * The rate limits a recorded run reruns under: the caller's, where the rerun's own calls decide
 * every wait again, except what the outside world decided. A wait other runs' calls made longer
 * (`rate_limit_wait.by_others`) lasts at least as long: those calls are outside the run. A wait
 * the run's stop from outside cut (its turn went no further) ends only with the replayed stop. A
 * limiter's n-th reservation is the recording's n-th (a wait, or a call that did not wait).
 */
export function recordedRateLimits(
  recording: Pick<Recording, 'events' | 'stop'>,
  given: RateLimits | undefined,
): { rateLimits?: RateLimits } {
  if (given === undefined) return {};
  const waits = recordedWaits(recording, given);
  if (waits.size === 0) return { rateLimits: given };
  const replayed = new Map<ProviderLimiter, ProviderLimiter>();
  return {
    rateLimits: {
      limiterFor(provider) {
        const limiter = given.limiterFor(provider);
        const recordedOnes = limiter === undefined ? undefined : waits.get(limiter);
        if (limiter === undefined || recordedOnes === undefined) return limiter;
        let found = replayed.get(limiter);
        if (found === undefined) {
          found = replayedLimiter(limiter, recordedOnes);
          replayed.set(limiter, found);
        }
        return found;
      },
    },
  };
}

/**
 * For each limiter, the recorded waits that the outside world decided (longer for other runs'
 * calls, or cut by the stop), by the index of their reservation among the limiter's.
 */
function recordedWaits(
  { events, stop }: Pick<Recording, 'events' | 'stop'>,
  given: RateLimits,
): Map<ProviderLimiter, Map<number, RecordedWait>> {
  const inOrder = [...events].sort((a, b) => madeOf(a) - madeOf(b));
  const waits = new Map<ProviderLimiter, Map<number, RecordedWait>>();
  const reserved = new Map<ProviderLimiter, number>();
  // Each turn's wait still to be followed by its call (which then made no reservation of its own).
  const pending = new Map<string, { limiter: ProviderLimiter; index: number; event: TraceEvent }>();
  const reserve = (limiter: ProviderLimiter): number => {
    const index = reserved.get(limiter) ?? 0;
    reserved.set(limiter, index + 1);
    return index;
  };
  for (const event of inOrder) {
    // The turn an event goes on: its agent's span (an agent_end is that span's own end).
    const turn = event.event === 'agent_end' ? event.span_id : (event.parent_span_id ?? '');
    const waiting = pending.get(turn);
    if (waiting !== undefined && event.event !== 'rate_limit_wait') {
      pending.delete(turn);
      const wait = waiting.event.event === 'rate_limit_wait' ? waiting.event : undefined;
      // The stop the rerun replays ended the turn there, not a call.
      const cut = event.event !== 'llm_start' && stop.ended(event);
      if (wait !== undefined && (wait.by_others === true || cut)) {
        const byIndex = waits.get(waiting.limiter) ?? new Map<number, RecordedWait>();
        byIndex.set(waiting.index, {
          byOthers: wait.by_others === true,
          waitedMs: wait.waited_ms,
          cut,
        });
        waits.set(waiting.limiter, byIndex);
      }
      if (event.event === 'llm_start') continue;
    }
    if (event.event !== 'rate_limit_wait' && event.event !== 'llm_start') continue;
    const limiter = given.limiterFor(event.provider);
    if (limiter === undefined) continue;
    const index = reserve(limiter);
    if (event.event === 'rate_limit_wait') pending.set(turn, { limiter, index, event });
  }
  return waits;
}

/** `limiter`, its n-th reservation placed as the outside world decided in the recording. */
function replayedLimiter(
  limiter: ProviderLimiter,
  waits: Map<number, RecordedWait>,
): ProviderLimiter {
  let asked = 0;
  return {
    get countsTokens() {
      return limiter.countsTokens;
    },
    reserve(nowMs, tokens, owner) {
      const wait = waits.get(asked++);
      if (wait === undefined) return limiter.reserve(nowMs, tokens, owner);
      // Asked as late as the recorded wait ended: the rerun's own calls may hold it longer still.
      const placed = limiter.reserve(nowMs + (wait.byOthers ? wait.waitedMs : 0), tokens, owner);
      const reason = placed.reason ?? 'requests';
      if (!wait.cut) return { ...placed, reason };
      // Never settled with an answer (the stop cuts it), so a copy of its place does.
      const reservation = { ...placed.reservation, atMs: nowMs + untilTheStopMs, reason };
      return { ...placed, reservation, reason };
    },
    settle: (reservation, tokens) => limiter.settle(reservation, tokens),
    pauseUntil: (untilMs, owner) => limiter.pauseUntil(untilMs, owner),
  };
}
