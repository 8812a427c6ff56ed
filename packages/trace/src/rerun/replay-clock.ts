import { systemClock, type Clock, type TimedWork } from '@agent-trace/core';
import { sleepOn, VirtualTime } from '@agent-trace/core/util';

/**
 * The clock of a rerun: virtual time that the recording moves. It starts at the recorded run's
 * start, and each recorded answer handed out (a model's, a tool's) moves it on to the time that
 * answer arrived in the recording, so decisions that read the clock (a breaker's cool-down, a
 * rate limit's minute, a run's deadline) see the times the recorded run saw. A wait (a retry's
 * backoff, a rate limit's hold) takes no real time: when nothing else can go on, time jumps to the
 * earliest wake-up. A rerun's wall time is its work, whatever the recorded run waited for.
 */
export class ReplayClock implements Clock {
  readonly #time: VirtualTime;

  /** @param startMs - the first reading: the recorded run's start */
  constructor(startMs: number) {
    this.#time = new VirtualTime(startMs);
  }

  /** Set once the clock runs in real time (a fork past its fork point): the real time it did. */
  #liveSinceMs: number | undefined;

  /** The virtual time, in milliseconds since the Unix epoch. Reading it does not move it. */
  now(): number {
    const { nowMs } = this.#time;
    return this.#liveSinceMs === undefined ? nowMs : nowMs + (Date.now() - this.#liveSinceMs);
  }

  /**
   * From now on time passes in real time, from where the recording left it, and waits take real
   * time: a fork past its fork point talks to a live model, whose rate limits and backoff are
   * real. Recorded answers still given (another agent's, before its cut) come at once.
   */
  goLive(): void {
    this.#liveSinceMs ??= Date.now();
  }

  /** Moves time on to `timeMs`, when that is later (a recorded answer arrived then). */
  advanceTo(timeMs: number): void {
    this.#time.advanceTo(timeMs);
  }

  /**
   * At `atMs` the run is stopped from outside (`fire` aborts its signal): a wait that would end
   * after then is cut by the stop instead, at that time.
   */
  stopAt(atMs: number, fire: () => void): void {
    this.#time.cutAt(atMs, fire);
  }

  /** Whether time limits run on real timers (live tools), or the recording decides them. */
  #realLimits = false;

  /**
   * Tools' time limits (their `timeoutMs`) run on real timers from now on: the rerun runs the real
   * tools, whose time is real. Until then a limit never runs out by itself: the recording holds
   * whether the work it limited ran out of time (a recorded timeout is replayed as one). Model
   * calls stay recorded, so their limits stay the recording's until a fork goes live.
   */
  limitsInRealTime(): void {
    this.#realLimits = true;
  }

  /**
   * A time limit: real when the work is real (a tool with live tools, anything past a fork point),
   * else the recording's.
   */
  timer(delayMs: number, onTimeout: () => void, work: TimedWork): () => void {
    const real = this.#liveSinceMs !== undefined || (work === 'tool' && this.#realLimits);
    if (!real) return () => undefined;
    const timer = setTimeout(onTimeout, delayMs);
    return () => clearTimeout(timer);
  }

  /**
   * Waits until virtual time `timeMs` (a recorded answer arrived then), so that answers given in
   * parallel arrive in the order they did; at once when that time has passed. With an `order`
   * (where the recording made the event among its own), waits that end at the same time end one
   * by one in that order, even at the time it is now.
   */
  until(timeMs: number, order?: number): Promise<void> {
    const { nowMs } = this.#time;
    if (this.#liveSinceMs !== undefined || !Number.isFinite(timeMs)) return Promise.resolve();
    if (timeMs > nowMs || (timeMs === nowMs && order !== undefined))
      return this.#time.sleep(timeMs - nowMs, undefined, order);
    return Promise.resolve();
  }

  /** Waits `delayMs` of virtual time; rejects with a `RunAbortedError` when `signal` fires first. */
  sleep(delayMs: number, signal: AbortSignal | undefined): Promise<void> {
    return this.#liveSinceMs === undefined
      ? this.#time.sleep(delayMs, signal)
      : sleepOn(systemClock, delayMs, signal);
  }

  /**
   * Resolves once nothing else can go on: every other part of the run has ended or waits for
   * something that only this wait ending can bring (time does not move for it). At once when the
   * clock runs in real time. A call past the end of its recording waits so for a stop from outside
   * that another part of the run is still to reach.
   */
  idle(): Promise<void> {
    return this.#liveSinceMs === undefined ? this.#time.idle() : Promise.resolve();
  }
}
