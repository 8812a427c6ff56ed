/** Options of a circuit breaker. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. @defaultValue 5 */
  failureThreshold: number;
  /** How long an open circuit refuses calls before letting one through (half-open). @defaultValue 30000 */
  cooldownMs: number;
}

/**
 * A breaker's state as a trace keeps it: its consecutive failures, when it opened (on the run's
 * clock, while it is open or half open), and whether a trial call is under way.
 */
export interface BreakerSnapshot {
  readonly failures: number;
  readonly opened_at_ms?: number;
  readonly trial?: boolean;
}

/** A breaker that nothing has failed through: closed. */
export const closedBreaker: BreakerSnapshot = Object.freeze({ failures: 0 });

/** `closed`: calls go through; `open`: calls are refused; `half_open`: one trial call goes through. */
export type CircuitState = 'closed' | 'open' | 'half_open';

/**
 * Stops calling a model or tool that keeps failing: after `failureThreshold`
 * consecutive failures it opens and refuses calls; after `cooldownMs` it lets one call through;
 * that call's success closes it again, its failure reopens it.
 */
export class CircuitBreaker {
  readonly options: CircuitBreakerOptions;
  #failures = 0;
  #openedAtMs: number | undefined;
  #trialInFlight = false;

  constructor(options: CircuitBreakerOptions) {
    this.options = options;
  }

  /** The state at `nowMs`. */
  state(nowMs: number): CircuitState {
    if (this.#openedAtMs === undefined) return 'closed';
    return nowMs - this.#openedAtMs >= this.options.cooldownMs ? 'half_open' : 'open';
  }

  /** Whether a call may go ahead now. A half-open circuit lets one call through at a time. */
  allows(nowMs: number): boolean {
    const state = this.state(nowMs);
    if (state === 'closed') return true;
    if (state === 'open' || this.#trialInFlight) return false;
    this.#trialInFlight = true;
    return true;
  }

  /** A call succeeded: the circuit closes. */
  recordSuccess(): void {
    this.#failures = 0;
    this.#openedAtMs = undefined;
    this.#trialInFlight = false;
  }

  /** A call failed: a trial call or the threshold-th consecutive failure opens the circuit. */
  recordFailure(nowMs: number): void {
    this.#failures++;
    if (this.#trialInFlight || this.#failures >= this.options.failureThreshold) {
      this.#openedAtMs = nowMs;
    }
    this.#trialInFlight = false;
  }

  /** What the breaker holds, as a JSON value a trace keeps (see `restore`). */
  snapshot(): BreakerSnapshot {
    return {
      failures: this.#failures,
      ...(this.#openedAtMs === undefined ? {} : { opened_at_ms: this.#openedAtMs }),
      ...(this.#trialInFlight ? { trial: true } : {}),
    };
  }

  /** Takes the state `snapshot` says it held. */
  restore(snapshot: BreakerSnapshot): void {
    this.#failures = snapshot.failures;
    this.#openedAtMs = snapshot.opened_at_ms;
    this.#trialInFlight = snapshot.trial === true;
  }

  /** Milliseconds until an open circuit lets a call through again. */
  retryInMs(nowMs: number): number {
    return this.#openedAtMs === undefined
      ? 0
      : Math.max(0, this.options.cooldownMs - (nowMs - this.#openedAtMs));
  }
}

/**
 * The circuit breakers of one scope (an agent, or one run of it), one per model or tool, by name
 * (a model by its provider and id, so a feature's wrapper of it keeps its breaker), all with the
 * scope's settings. Nothing is shared between scopes: two agents with different settings keep
 * theirs, and separate runs (or tests) of `run`-scoped agents start closed.
 */
export class CircuitBreakers {
  readonly #breakers = new Map<string, CircuitBreaker>();

  constructor(readonly options: CircuitBreakerOptions) {}

  /** The breaker of the model or tool named `name`, made on first use. */
  for(name: string): CircuitBreaker {
    let breaker = this.#breakers.get(name);
    if (breaker === undefined) {
      breaker = new CircuitBreaker(this.options);
      this.#breakers.set(name, breaker);
    }
    return breaker;
  }
}
