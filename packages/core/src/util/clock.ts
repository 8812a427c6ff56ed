/** Where a run reads the time from. Pass a fake one for fixed times in tests and golden traces. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = Object.freeze({ now: () => Date.now() });

/**
 * A clock that starts at `startMs` and advances by `stepMs` every time it is read: times are
 * fixed and strictly increasing, so traces are reproducible.
 * @param startMs - the first reading @defaultValue 2026-01-01T00:00:00.000Z
 * @param stepMs - how far each reading advances @defaultValue 1
 */
export function steppingClock({
  startMs = Date.UTC(2026, 0, 1),
  stepMs = 1,
}: { startMs?: number; stepMs?: number } = {}): Clock {
  let current = startMs - stepMs;
  return {
    now: () => {
      current += stepMs;
      return current;
    },
  };
}
