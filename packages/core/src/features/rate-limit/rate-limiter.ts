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
  /** The run that asked, when it said. */
  readonly owner?: string | undefined;
}

/** A call's place, as {@link RateLimiter.reserve} gives it. */
export interface Placement {
  readonly reservation: Reservation;
  readonly reason: 'requests' | 'tokens' | 'retry_after' | undefined;
  /**
   * True when calls of other runs than `owner` (or another run's `retry-after`) made the wait
   * longer than the run's own calls alone would have: a part of the wait a rerun cannot decide
   * again from the run's own calls.
   */
  readonly byOthers: boolean;
}

/** What a run's features ask of a provider's limiter (a {@link RateLimiter}, or a rerun's). */
export type ProviderLimiter = Pick<
  RateLimiter,
  'reserve' | 'countsTokens' | 'settle' | 'pauseUntil'
>;

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
  /** The run whose call the provider paused, when it said. */
  #pausedBy: string | undefined;

  constructor(limit: RateLimit) {
    this.#limit = limit;
  }

  /**
   * Reserves a start time for a call of `tokens` (estimated) at or after `nowMs`: the time it
   * must wait for, and why (`requests`, `tokens`, or the provider's `retry_after`). `owner` (a
   * run id) lets it say whether other runs' calls made the wait longer.
   */
  reserve(nowMs: number, tokens: number, owner?: string): Placement {
    this.#window = this.#window.filter(kept => kept.atMs > nowMs - minuteMs);
    const { atMs, reason } = this.#place(nowMs, tokens, this.#window, this.#pausedUntilMs);
    const byOthers =
      owner !== undefined &&
      atMs > nowMs &&
      this.#place(
        nowMs,
        tokens,
        this.#window.filter(kept => kept.owner === owner),
        this.#pausedBy === owner ? this.#pausedUntilMs : 0,
      ).atMs < atMs;
    const reservation: Reservation = {
      atMs,
      tokens,
      reason: atMs > nowMs ? reason : undefined,
      ...(owner === undefined ? {} : { owner }),
    };
    this.#window.push(reservation);
    return { reservation, reason: reservation.reason, byOthers };
  }

  /** Where a call of `tokens` asking at `nowMs` goes, behind the calls of `window`. */
  #place(
    nowMs: number,
    tokens: number,
    window: readonly Reservation[],
    pausedUntilMs: number,
  ): { atMs: number; reason: Reservation['reason'] } {
    const last = window.at(-1);
    let atMs = Math.max(nowMs, pausedUntilMs, last?.atMs ?? nowMs);
    // Queued behind an earlier call that waits: it waits for the same reason.
    let reason: Reservation['reason'] =
      pausedUntilMs > nowMs
        ? 'retry_after'
        : last !== undefined && last.atMs > nowMs
          ? last.reason
          : undefined;
    for (;;) {
      const inMinute = window.filter(kept => kept.atMs > atMs - minuteMs);
      const byRequests = this.#requestsFreeAt(inMinute);
      const byTokens = this.#tokensFreeAt(inMinute, tokens);
      const next = Math.max(byRequests, byTokens);
      if (next <= atMs) break;
      reason = byRequests >= byTokens ? 'requests' : 'tokens';
      atMs = next;
    }
    return { atMs, reason };
  }

  /** True when the limit counts tokens: calls then need their estimated size. */
  get countsTokens(): boolean {
    return this.#limit.tokensPerMinute !== undefined;
  }

  /** The call's real token count, once known: what later calls are measured against. */
  settle(reservation: Reservation, tokens: number): void {
    reservation.tokens = tokens;
  }

  /** The provider said to wait (`retry-after`), to `owner`'s call: no call starts before `untilMs`. */
  pauseUntil(untilMs: number, owner?: string): void {
    if (untilMs <= this.#pausedUntilMs) return;
    this.#pausedUntilMs = untilMs;
    this.#pausedBy = owner;
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
