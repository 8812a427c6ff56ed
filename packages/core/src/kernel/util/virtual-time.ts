import { RunAbortedError } from '../errors/abort-error.js';
import { tasksQueued } from './next-task.js';

/**
 * Time that waits take none of: a wait ends once everything that can go on has (I/O and promise
 * jobs first) and no other wait ends earlier, and time then jumps to its end. Waits that overlap
 * end in the order of their ends (waits given an order that end at one time, one by one in that
 * order). The one scheduler behind `virtualClock()`, `steppingClock()` and a rerun's clock.
 */
export class VirtualTime {
  #current: number;
  readonly #timers: Timer[] = [];
  /** Those waiting until nothing else can go on. */
  readonly #idle: (() => void)[] = [];
  #scheduled = false;
  /** A time past which no wait ends before `fire` has run (see {@link VirtualTime.cutAt}). */
  #cut: { readonly atMs: number; readonly fire: () => void } | undefined;

  /** @param startMs - the time it starts at, in milliseconds since the Unix epoch */
  constructor(startMs: number) {
    this.#current = startMs;
  }

  /** The time now. Reading it does not move it. */
  get nowMs(): number {
    return this.#current;
  }

  /** Moves time on to `timeMs`, when that is later. */
  advanceTo(timeMs: number): void {
    if (Number.isFinite(timeMs) && timeMs > this.#current) this.#current = timeMs;
  }

  /**
   * Waits `delayMs`; rejects with a `RunAbortedError` when `signal` fires first. Waits with an
   * `order` that end at the same time end one at a time, lowest first, each after what the one
   * before set going has gone as far as it can; before those without one.
   */
  sleep(delayMs: number, signal: AbortSignal | undefined, order?: number): Promise<void> {
    if (signal?.aborted === true)
      return Promise.reject(new RunAbortedError({ reason: signal.reason }));
    return new Promise((resolve, reject) => {
      const timer: Timer = {
        atMs: this.#current + Math.max(0, delayMs),
        order: order ?? Infinity,
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

  /**
   * Resolves once nothing else can go on: no wait is left, and every other part of the work has
   * ended or waits for something this wait ending brings (time does not move for it).
   */
  idle(): Promise<void> {
    return new Promise(resolve => {
      this.#idle.push(resolve);
      this.#schedule();
    });
  }

  /**
   * At `atMs` something happens that ends waits (`fire`, a stop that aborts their signal): a wait
   * that would end after then moves time to `atMs` and runs `fire` first.
   */
  cutAt(atMs: number, fire: () => void): void {
    this.#cut = { atMs, fire };
  }

  /** After everything that can go on has (I/O and promise jobs first), time moves on. */
  #schedule(): void {
    if (this.#scheduled || (this.#timers.length === 0 && this.#idle.length === 0)) return;
    this.#scheduled = true;
    setImmediate(() => this.#advance());
  }

  #advance(): void {
    this.#scheduled = false;
    // Work still to go on in a task of its own (an answer handed on) comes before time moves.
    if (tasksQueued()) {
      this.#schedule();
      return;
    }
    this.#timers.sort(byEnd);
    const first = this.#timers[0];
    if (first === undefined) {
      for (const wake of this.#idle.splice(0)) wake();
      return;
    }
    const cut = this.#cut;
    if (cut !== undefined && first.atMs > cut.atMs) {
      // The cut comes first: what it fires ends the waits it cuts, and time goes on from there.
      this.#cut = undefined;
      this.advanceTo(cut.atMs);
      cut.fire();
      this.#schedule();
      return;
    }
    this.#current = Math.max(this.#current, first.atMs);
    if (first.order !== Infinity) this.#timers.shift()?.wake();
    else
      while (this.#timers[0] !== undefined && this.#timers[0].atMs <= this.#current)
        this.#timers.shift()?.wake();
    this.#schedule();
  }
}

/** A wait: when it ends, its order among waits that end then, and what it wakes. */
interface Timer {
  readonly atMs: number;
  readonly order: number;
  readonly wake: () => void;
}

/** Earlier ends first; at one time, lower orders first (those without one last, as they came). */
function byEnd(left: Timer, right: Timer): number {
  if (left.atMs !== right.atMs) return left.atMs - right.atMs;
  if (left.order === right.order) return 0;
  return left.order < right.order ? -1 : 1;
}
