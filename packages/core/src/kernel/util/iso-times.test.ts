import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IsoTimes } from './iso-times.js';

describe('IsoTimes', () => {
  it('gives what toISOString gives, for times in any order (property)', () => {
    const near = fc.integer({ min: -3000, max: 3000 });
    const time = fc.oneof(
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.double({ min: -1e13, max: 1e13, noNaN: true }),
      fc.constantFrom(0, -0, 999.9, -0.5, -1, 1_795_000_000_000, 253_402_300_799_999),
    );
    fc.assert(
      fc.property(time, fc.array(near, { maxLength: 20 }), (start, steps) => {
        const times = new IsoTimes();
        for (const at of [start, ...steps.map(step => start + step)]) {
          if (Number.isNaN(new Date(at).getTime()))
            expect(() => times.text(at)).toThrow(RangeError);
          else expect(times.text(at)).toBe(new Date(at).toISOString());
        }
      }),
      { numRuns: 3000, seed: 1126 },
    );
  });

  it('throws as a Date does for a time it cannot show', () => {
    const times = new IsoTimes();
    for (const at of [Number.NaN, Infinity, 8.64e15 + 1])
      expect(() => times.text(at)).toThrow(RangeError);
  });
});
