import { RunAbortedError } from '../errors/abort-error.js';
import { VirtualTime } from './virtual-time.js';

/**
 * Where a run reads the time from and how it waits (retry backoff). Pass `steppingClock()` in tests:
 * fixed times, and waits that take no real time.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Waits `delayMs`; rejects with a `RunAbortedError` when `signal` fires first.
   * @defaultValue a real timer
   */
  sleep?(delayMs: number, signal: AbortSignal | undefined): Promise<void>;
  /**
   * Starts a time limit on work the run waits for (a tool's `timeoutMs`, a model call's
   * `modelTimeoutMs` and `streamIdleTimeoutMs`): `onTimeout` is called once `delayMs` has passed,
   * unless the returned function clears it first. `work` says what is limited. A rerun's clock
   * keeps the limits of work whose outcome its recording holds (the recording says whether the
   * time ran out). @defaultValue a real timer
   */
  timer?(delayMs: number, onTimeout: () => void, work: TimedWork): () => void;
}

/** The work a time limit is on: a tool's call, or a model's. */
export type TimedWork = 'tool' | 'model';

/** A time limit on `clock`: its own timer, or a real one. Gives the function that clears it. */
export function timerOn(
  clock: Clock,
  delayMs: number,
  onTimeout: () => void,
  work: TimedWork,
): () => void {
  if (clock.timer !== undefined) return clock.timer(delayMs, onTimeout, work);
  const timer = setTimeout(onTimeout, delayMs);
  return () => clearTimeout(timer);
}

/** Waits on `clock`, or on a real timer when the clock cannot wait. */
export function sleepOn(
  clock: Clock,
  delayMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  return clock.sleep === undefined ? realSleep(delayMs, signal) : clock.sleep(delayMs, signal);
}

function realSleep(delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted === true)
    return Promise.reject(new RunAbortedError({ reason: signal.reason }));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new RunAbortedError({ reason: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The real clock. */
export const systemClock: Clock = Object.freeze({ now: () => Date.now(), sleep: realSleep });

/**
 * A virtual clock that starts at `startMs` and advances by `stepMs` every time it is read; a sleep
 * takes no real time. Times are fixed and strictly increasing, so traces are reproducible and
 * retry backoff costs no real time. Sleeps that overlap (parallel steps, parallel agents) end in
 * the order of their wake-up times, as on {@link virtualClock}: time jumps to the earliest once
 * everything that can go on has, so a 1 s wait begun beside a 60 s one ends first.
 * @param startMs - the first reading @defaultValue 2026-01-01T00:00:00.000Z
 * @param stepMs - how far each reading advances @defaultValue 1
 */
export function steppingClock({
  startMs = Date.UTC(2026, 0, 1),
  stepMs = 1,
}: { startMs?: number; stepMs?: number } = {}): Clock {
  return scheduledClock(startMs - stepMs, stepMs);
}

/**
 * A virtual clock for concurrent runs: time stands still while any run can go on, and when every
 * one is waiting it jumps to the earliest wake-up. Waits take no real time, and concurrent runs
 * see one consistent time. Reading it does not advance it.
 * @param startMs - @defaultValue 2026-01-01T00:00:00.000Z
 */
export function virtualClock({ startMs = Date.UTC(2026, 0, 1) }: { startMs?: number } = {}): Clock {
  return scheduledClock(startMs, 0);
}

/** Virtual time from `startMs`, moved by `stepMs` a reading, whose sleeps wake in time order. */
function scheduledClock(startMs: number, stepMs: number): Clock {
  const time = new VirtualTime(startMs);
  return {
    now: () => {
      time.advanceTo(time.nowMs + stepMs);
      return time.nowMs;
    },
    sleep: (delayMs, signal) => time.sleep(delayMs, signal),
  };
}
