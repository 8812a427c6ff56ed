import { run } from '@agent-trace/core';
import { describe, expect, it } from 'vitest';
import { refundCase, refundDesk } from '../../../../test/fixtures/refund-desk.js';
import { defineEval } from '../define-eval.js';
import { runEval } from '../run-eval.js';
import { exactMatch } from '../scorers/output.js';
import { trajectoryMatch } from '../scorers/trajectory.js';
import { bootstrapInterval, mean, seededRandom } from './bootstrap.js';
import { compareEvals } from './compare-evals.js';

/** The refund eval, the desk careless where `careless(id, trial)` says. */
const refunds = (careless: (id: number, trial: number) => boolean = () => false, trials = 1) =>
  defineEval<{ order: number }>({
    name: 'refunds',
    data: [1, 2, 3, 4, 5, 6].map(refundCase),
    task: ({ order: id }, { runOptions, trial }) =>
      run(refundDesk(id, careless(id, trial)), `Refund order ${id}`, runOptions),
    scorers: [trajectoryMatch(), exactMatch()],
    trials,
  });

describe('compareEvals', () => {
  it('names the cases a planted regression broke, and fails the gate; an unchanged agent passes', async () => {
    const baseline = await runEval(refunds());
    const same = compareEvals(baseline, await runEval(refunds()));
    expect(same.regressed).toBe(false);
    expect(same.scorers.map(each => [each.scorer, each.difference, each.interval])).toEqual([
      ['trajectory', 0, [0, 0]],
      ['exact', 0, [0, 0]],
    ]);

    const broken = compareEvals(baseline, await runEval(refunds(id => id % 2 === 0)));
    expect(broken.regressed).toBe(true);
    const [trajectory, exact] = broken.scorers;
    expect(trajectory?.regressed.map(each => each.id)).toEqual(['order-2', 'order-4', 'order-6']);
    expect(trajectory?.regressed[0]?.reason).toBe(
      'step 1: refund({"order":2}) where the reference has lookup({"order":2})',
    );
    expect(trajectory?.difference).toBe(-0.5);
    expect(trajectory?.interval[1]).toBeLessThan(0);
    expect(exact?.regressed).toEqual([]);
  });

  it('names a case whose trials disagree as flaky, not as a regression, and gives pass@k', async () => {
    const baseline = await runEval(refunds(() => false, 3));
    // Order 3 skips its lookup on the second trial only.
    const candidate = await runEval(refunds((id, trial) => id === 3 && trial === 2, 3));
    const comparison = compareEvals(baseline, candidate);
    expect(comparison.flaky).toEqual([{ id: 'order-3', scorer: 'trajectory', scores: [1, 0, 1] }]);
    expect(comparison.regressed).toBe(false);
    expect(comparison.scorers[0]?.passAtK).toEqual({ baseline: 1, candidate: 1 });
    const order3 = comparison.scorers[0]?.cases.find(each => each.id === 'order-3');
    expect(order3?.variance?.baseline).toBe(0);
    expect(order3?.variance?.candidate).toBeCloseTo(2 / 9); // scores 1, 0, 1 about their mean 2/3
  });

  it('leaves out the cases only one run has, and says which', async () => {
    const baseline = await runEval(refunds(), { filter: /order-[1-4]/ });
    const candidate = await runEval(refunds(), { filter: /order-[3-6]/ });
    expect([...compareEvals(baseline, candidate).unpaired].sort()).toEqual([
      'order-1',
      'order-2',
      'order-5',
      'order-6',
    ]);
  });
});

describe('the bootstrap interval', () => {
  it('covers the true mean difference at about its stated rate on simulated data', () => {
    const random = seededRandom(42);
    /** A normal draw (Box–Muller) with this mean and spread. */
    const normal = (mu: number, sigma: number) =>
      mu + sigma * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const trueDifference = 0.1;
    const replications = 300;
    let covered = 0;
    for (let replication = 0; replication < replications; replication++) {
      const differences = Array.from({ length: 40 }, () => normal(trueDifference, 0.3));
      const [low, high] = bootstrapInterval(differences, {
        seed: replication + 1,
        resamples: 1000,
      });
      if (low <= trueDifference && trueDifference <= high) covered++;
    }
    // 95% stated; a percentile bootstrap of 40 values runs a little under it.
    expect(covered / replications).toBeGreaterThan(0.9);
    expect(covered / replications).toBeLessThan(0.99);
  });

  it('is the same for the same values and seed, and holds the mean', () => {
    const values = [0.2, -0.1, 0.4, 0, 0.3];
    const interval = bootstrapInterval(values, { seed: 7 });
    expect(bootstrapInterval(values, { seed: 7 })).toEqual(interval);
    expect(interval[0]).toBeLessThanOrEqual(mean(values));
    expect(interval[1]).toBeGreaterThanOrEqual(mean(values));
  });
});
