import { RunAbortedError, type Clock } from '@agent-trace/core';

/**
 * The clock of a rerun: virtual time that the recording moves. It starts at the recorded run's
 * start, and each recorded answer handed out (a model's, a tool's) moves it on to the time that
 * answer arrived in the recording, so decisions that read the clock (a breaker's cool-down, a
 * rate limit's minute, a run's deadline) see the times the recorded run saw. A wait (a retry's
 * backoff, a rate limit's hold) takes no real time: when nothing else can go on, time jumps to the
 * earliest wake-up. A rerun's wall time is its work, whatever the recorded run waited for.
 */
export class ReplayClock implements Clock {
  #current: number;
  readonly #timers: { atMs: number; wake: () => void }[] = [];
  #scheduled = false;

  /** @param startMs - the first reading: the recorded run's start */
  constructor(startMs: number) {
    this.#current = startMs;
  }

  /** The virtual time, in milliseconds since the Unix epoch. Reading it does not move it. */
  now(): number {
    return this.#current;
  }

  /** Moves time on to `timeMs`, when that is later (a recorded answer arrived then). */
  advanceTo(timeMs: number): void {
    if (Number.isFinite(timeMs) && timeMs > this.#current) this.#current = timeMs;
  }

  /** Waits `delayMs` of virtual time; rejects with a `RunAbortedError` when `signal` fires first. */
  sleep(delayMs: number, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted === true)
      return Promise.reject(new RunAbortedError({ reason: signal.reason }));
    return new Promise((resolve, reject) => {
      const timer = {
        atMs: this.#current + Math.max(0, delayMs),
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const index = this.#timers.indexOf(timer);
        if (index >= 0) this.#timers.splice(index, 1);
        reject(new RunAbortedError({ reason: signal?.reason }));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#timers.push(timer);
      this.#schedule();
    });
  }

  /** After everything that can go on has (I/O and promise jobs first), time moves on. */
  #schedule(): void {
    if (this.#scheduled || this.#timers.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => this.#advance());
  }

  #advance(): void {
    this.#scheduled = false;
    this.#timers.sort((left, right) => left.atMs - right.atMs);
    const first = this.#timers[0];
    if (first === undefined) return;
    this.#current = Math.max(this.#current, first.atMs);
    while (this.#timers[0] !== undefined && this.#timers[0].atMs <= this.#current)
      this.#timers.shift()?.wake();
    this.#schedule();
  }
}
