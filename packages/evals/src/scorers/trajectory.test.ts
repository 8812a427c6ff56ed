import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  containsPartially,
  jsonEqual,
  matchTrajectory,
  type TrajectoryStep,
} from './trajectory.js';

const step: fc.Arbitrary<TrajectoryStep> = fc.oneof(
  fc.record({
    tool: fc.constantFrom('lookup', 'refund', 'search'),
    args: fc.record({ id: fc.integer({ min: 1, max: 3 }) }),
  }),
  fc.record({ handoff: fc.constantFrom('billing', 'tech') }),
);
const trajectory = fc.array(step, { maxLength: 6 });
const passes = (
  actual: readonly TrajectoryStep[],
  reference: readonly TrajectoryStep[],
  mode: Parameters<typeof matchTrajectory>[2],
) => matchTrajectory(actual, reference, mode).score === 1;
const seed = { seed: 2811, numRuns: 300 };

describe('trajectory match, against its definitions', () => {
  it('strict ⇒ unordered ⇒ subset and superset; and unordered ⇔ subset and superset', () => {
    fc.assert(
      fc.property(trajectory, trajectory, (actual, reference) => {
        const strict = passes(actual, reference, 'strict');
        const unordered = passes(actual, reference, 'unordered');
        const subset = passes(actual, reference, 'subset');
        const superset = passes(actual, reference, 'superset');
        if (strict) expect(unordered).toBe(true);
        expect(unordered).toBe(subset && superset);
      }),
      seed,
    );
  });

  it('a permutation passes unordered, and strict only when it keeps the order', () => {
    fc.assert(
      fc.property(
        trajectory.chain(reference =>
          fc.tuple(
            fc.constant(reference),
            fc.shuffledSubarray(reference, { minLength: reference.length }),
          ),
        ),
        ([reference, permuted]) => {
          expect(passes(permuted, reference, 'unordered')).toBe(true);
          const sameOrder = permuted.every((each, i) => jsonEqual(each, reference[i]));
          expect(passes(permuted, reference, 'strict')).toBe(sameOrder);
        },
      ),
      seed,
    );
  });

  it('an extra call fails subset and passes superset; a missing one the other way round', () => {
    fc.assert(
      fc.property(trajectory, fc.nat(), (reference, at) => {
        const extra: TrajectoryStep = { tool: 'delete_everything', args: {} };
        const more = [...reference];
        more.splice(at % (reference.length + 1), 0, extra);
        expect(passes(more, reference, 'subset')).toBe(false);
        expect(passes(more, reference, 'superset')).toBe(true);
        expect(passes(reference, more, 'subset')).toBe(true);
        expect(passes(reference, more, 'superset')).toBe(false);
      }),
      seed,
    );
  });

  it('scores a miss below 1 and says what differs', () => {
    const reference: TrajectoryStep[] = [
      { tool: 'lookup', args: { id: 1 } },
      { handoff: 'billing' },
    ];
    expect(matchTrajectory([{ tool: 'lookup', args: { id: 1 } }], reference, 'strict')).toEqual({
      score: 0.5,
      reason: "step 2: nothing where the reference has a handoff to 'billing'",
    });
    expect(
      matchTrajectory(
        [{ tool: 'refund', args: { id: 1 } }, { handoff: 'billing' }],
        reference,
        'unordered',
      ),
    ).toEqual({
      score: 0.5,
      reason: 'not in the reference: refund({"id":1}); missing: lookup({"id":1})',
    });
  });

  it('matches arguments exactly, partially, not at all, or by a comparer of your own', () => {
    const actual: TrajectoryStep[] = [{ tool: 'refund', args: { id: 1, amount: 50, note: 'x' } }];
    const reference: TrajectoryStep[] = [{ tool: 'refund', args: { id: 1, amount: 50 } }];
    expect(matchTrajectory(actual, reference, 'strict', 'exact').score).toBe(0);
    expect(matchTrajectory(actual, reference, 'strict', 'partial').score).toBe(1);
    expect(matchTrajectory(actual, reference, 'strict', 'ignore').score).toBe(1);
    const sameAmount = (a: unknown, r: unknown) =>
      (a as { amount: number }).amount === (r as { amount: number }).amount;
    expect(matchTrajectory(actual, reference, 'strict', sameAmount).score).toBe(1);
  });

  it('pairs partial matches so that one that exists is found', () => {
    // Greedy pairing would give the broad reference step to the first call and leave none for the
    // second; the largest pairing matches both.
    const reference: TrajectoryStep[] = [
      { tool: 'search', args: {} },
      { tool: 'search', args: { q: 'a' } },
    ];
    const actual: TrajectoryStep[] = [
      { tool: 'search', args: { q: 'a' } },
      { tool: 'search', args: { q: 'b' } },
    ];
    expect(matchTrajectory(actual, reference, 'unordered', 'partial').score).toBe(1);
  });

  it('reads objects partially, everything else exactly', () => {
    expect(containsPartially({ a: { b: 1, c: 2 } }, { a: { b: 1 } })).toBe(true);
    expect(containsPartially({ a: [1, 2] }, { a: [1] })).toBe(false);
    expect(containsPartially(3, 3)).toBe(true);
  });
});
