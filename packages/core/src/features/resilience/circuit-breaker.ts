/** Options of a circuit breaker. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. @defaultValue 5 */
  failureThreshold: number;
  /** How long an open circuit refuses calls before letting one through (half-open). @defaultValue 30000 */
  cooldownMs: number;
}

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

  /** Milliseconds until an open circuit lets a call through again. */
  retryInMs(nowMs: number): number {
    return this.#openedAtMs === undefined
      ? 0
      : Math.max(0, this.options.cooldownMs - (nowMs - this.#openedAtMs));
  }
}

/**
 * The circuit breakers of one scope (an agent, or one run of it), one per model or tool, all
 * with the scope's settings. Nothing is shared between scopes: two agents with different settings
 * keep theirs, and separate runs (or tests) of `run`-scoped agents start closed.
 */
export class CircuitBreakers {
  readonly #breakers = new WeakMap<object, CircuitBreaker>();

  constructor(readonly options: CircuitBreakerOptions) {}

  /** The breaker of a model or tool, made on first use. */
  for(target: object): CircuitBreaker {
    let breaker = this.#breakers.get(target);
    if (breaker === undefined) {
      breaker = new CircuitBreaker(this.options);
      this.#breakers.set(target, breaker);
    }
    return breaker;
  }
}
