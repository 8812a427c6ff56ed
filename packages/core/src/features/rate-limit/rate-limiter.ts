/** Limits of one provider, per minute. */
export interface RateLimit {
  /** Model calls a minute. @defaultValue no limit */
  readonly requestsPerMinute?: number;
  /** Tokens (input + output) a minute; a call is counted at its estimated input, then corrected. */
  readonly tokensPerMinute?: number;
}

const minuteMs = 60_000;

/** A call's place in the window: when it may start, and the tokens it holds. */
export interface Reservation {
  readonly atMs: number;
  tokens: number;
  /** Why it waits, when it does. */
  readonly reason: 'requests' | 'tokens' | 'retry_after' | undefined;
}

/**
 * The calls of one provider, kept within its limits over every sliding minute: a call may start
 * when fewer than `requestsPerMinute` calls, and fewer than `tokensPerMinute` tokens, started in
 * the minute before it. Calls are placed in the order they ask (no call overtakes an earlier one),
 * and a provider's `retry-after` holds every call back until it has passed.
 */
export class RateLimiter {
  readonly #limit: RateLimit;
  /** Reservations of the last minute (and later ones), by start time. */
  #window: Reservation[] = [];
  #pausedUntilMs = 0;

  constructor(limit: RateLimit) {
    this.#limit = limit;
  }

  /**
   * Reserves a start time for a call of `tokens` (estimated) at or after `nowMs`: the time it
   * must wait for, and why (`requests`, `tokens`, or the provider's `retry_after`).
   */
  reserve(
    nowMs: number,
    tokens: number,
  ): {
    readonly reservation: Reservation;
    readonly reason: 'requests' | 'tokens' | 'retry_after' | undefined;
  } {
    this.#window = this.#window.filter(kept => kept.atMs > nowMs - minuteMs);
    const last = this.#window.at(-1);
    let atMs = Math.max(nowMs, this.#pausedUntilMs, last?.atMs ?? nowMs);
    // Queued behind an earlier call that waits: it waits for the same reason.
    let reason: Reservation['reason'] =
      this.#pausedUntilMs > nowMs
        ? 'retry_after'
        : last !== undefined && last.atMs > nowMs
          ? last.reason
          : undefined;
    for (;;) {
      const inMinute = this.#window.filter(kept => kept.atMs > atMs - minuteMs);
      const byRequests = this.#requestsFreeAt(inMinute);
      const byTokens = this.#tokensFreeAt(inMinute, tokens);
      const next = Math.max(byRequests, byTokens);
      if (next <= atMs) break;
      reason = byRequests >= byTokens ? 'requests' : 'tokens';
      atMs = next;
    }
    const reservation = { atMs, tokens, reason: atMs > nowMs ? reason : undefined };
    this.#window.push(reservation);
    return { reservation, reason: reservation.reason };
  }

  /** True when the limit counts tokens: calls then need their estimated size. */
  get countsTokens(): boolean {
    return this.#limit.tokensPerMinute !== undefined;
  }

  /** The call's real token count, once known: what later calls are measured against. */
  settle(reservation: Reservation, tokens: number): void {
    reservation.tokens = tokens;
  }

  /** The provider said to wait (`retry-after`): no call starts before `untilMs`. */
  pauseUntil(untilMs: number): void {
    this.#pausedUntilMs = Math.max(this.#pausedUntilMs, untilMs);
  }

  /** When a call may start so that the minute before it holds fewer calls than the limit. */
  #requestsFreeAt(inMinute: readonly Reservation[]): number {
    const limit = this.#limit.requestsPerMinute;
    if (limit === undefined || inMinute.length < limit) return -Infinity;
    return (inMinute[inMinute.length - limit] as Reservation).atMs + minuteMs;
  }

  /** When a call of `tokens` may start so that the minute before it holds no more than the limit. */
  #tokensFreeAt(inMinute: readonly Reservation[], tokens: number): number {
    const limit = this.#limit.tokensPerMinute;
    if (limit === undefined) return -Infinity;
    let held = inMinute.reduce((sum, kept) => sum + kept.tokens, 0);
    // A call larger than the limit waits for an empty minute, then goes alone.
    const room = Math.min(tokens, limit);
    for (const kept of inMinute) {
      if (held + room <= limit) return -Infinity;
      held -= kept.tokens;
      if (held + room <= limit) return kept.atMs + minuteMs;
    }
    return -Infinity;
  }
}
