import type { Clock } from './clock.js';

/**
 * The clock of a part of a run that goes on from a pause made at `pausedAtMs` (the paused part's
 * last reading): `clock`, moved on where it reads earlier than the pause (a new process's
 * `steppingClock()` starts over; a machine whose clock is behind), so that the run's times never
 * go back across the resume. Read as `clock` is; waits and limits are `clock`'s.
 */
export function continuedClock(clock: Clock, pausedAtMs: number): Clock {
  let offsetMs: number | undefined;
  const now = (): number => {
    const read = clock.now();
    offsetMs ??= read < pausedAtMs ? pausedAtMs - read : 0;
    return read + offsetMs;
  };
  return {
    now,
    ...(clock.sleep === undefined
      ? {}
      : {
          sleep: (delayMs, signal) => (clock.sleep as NonNullable<Clock['sleep']>)(delayMs, signal),
        }),
    ...(clock.timer === undefined
      ? {}
      : {
          timer: (delayMs, onTimeout, work) =>
            (clock.timer as NonNullable<Clock['timer']>)(delayMs, onTimeout, work),
        }),
  };
}
