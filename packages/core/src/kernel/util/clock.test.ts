import { describe, expect, it } from 'vitest';
import { steppingClock, virtualClock } from './clock.js';

describe('virtual clocks: waits that overlap end in the order of their wake-up times', () => {
  it('a steppingClock wakes a 1 s wait begun beside a 60 s one first, and the time does not add up', async () => {
    const clock = steppingClock({ startMs: 0, stepMs: 1 });
    const start = clock.now();
    const woke: string[] = [];
    const long = clock.sleep?.(60_000, undefined).then(() => woke.push(`60 s at ${clock.now()}`));
    const short = clock.sleep?.(1_000, undefined).then(() => woke.push(`1 s at ${clock.now()}`));
    await Promise.all([long, short]);
    expect(start).toBe(0);
    // Each reading moves it 1 ms; the 60 s wait ends at 60 s, not at 61 s as when waits added up.
    expect(woke).toEqual(['1 s at 1001', '60 s at 60001']);
  });

  it('a steppingClock alone reads as before: each reading one step, a wait its length', async () => {
    const clock = steppingClock({ startMs: 100, stepMs: 5 });
    expect(clock.now()).toBe(100);
    await clock.sleep?.(1_000, undefined);
    expect(clock.now()).toBe(1_105);
  });

  it('a virtualClock reads the same until time moves', async () => {
    const clock = virtualClock({ startMs: 0 });
    expect([clock.now(), clock.now()]).toEqual([0, 0]);
    await clock.sleep?.(250, undefined);
    expect(clock.now()).toBe(250);
  });
});
