import { describe, expect, it } from 'vitest';
import { steppingClock } from './clock.js';
import { continuedClock } from './continued-clock.js';
import { countedIds } from './continued-ids.js';
import { randomIds, sequentialIds } from './ids.js';

describe('a resumed part goes on after the paused one', () => {
  it('draws past the span ids a generator that starts over gives again', () => {
    const paused = countedIds(sequentialIds());
    const before = [paused.spanId(), paused.spanId(), paused.spanId()];
    const resumed = countedIds(sequentialIds(), paused.drawn());
    const after = [resumed.spanId(), resumed.spanId()];
    expect(after.some(id => before.includes(id))).toBe(false);
    expect(resumed.drawn()).toEqual({ firstSpanId: before[0], spans: 5 });
  });

  it('leaves a generator that goes on by itself as it is', () => {
    const ids = sequentialIds();
    const paused = countedIds(ids);
    paused.spanId();
    paused.spanId();
    const resumed = countedIds(ids, paused.drawn());
    expect(resumed.spanId()).toBe('0000000000000003');
    expect(countedIds(randomIds).drawn()).toBeUndefined();
  });

  it('moves a clock that reads earlier than the pause on to it, and leaves a later one', () => {
    const pausedAtMs = Date.UTC(2026, 0, 1, 0, 0, 5);
    const clock = continuedClock(steppingClock(), pausedAtMs);
    expect(clock.now()).toBe(pausedAtMs);
    expect(clock.now()).toBe(pausedAtMs + 1);
    const later = continuedClock(steppingClock({ startMs: pausedAtMs + 100 }), pausedAtMs);
    expect(later.now()).toBe(pausedAtMs + 100);
  });
});
