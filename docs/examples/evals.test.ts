// docs/guide/evals.md: an eval of a refund desk, and a planted regression it catches.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import {
  compareEvals,
  defineEval,
  exactMatch,
  noErrors,
  runEval,
  stopReasonIs,
  trajectoryMatch,
} from '@agent-trace/evals';
import { ExperimentStore, runExperiment } from '@agent-trace/evals/experiments';
import { describeEval } from '@agent-trace/evals/vitest';
import { expect, it } from 'vitest';
import { refundCase, refundDesk } from '../../test/fixtures/refund-desk.js';

let careless = false;

it('scores every case, and a regression shows in the trajectory score with the cases named', async () => {
  const refunds = defineEval<{ order: number }>({
    name: 'refunds',
    data: [7, 8, 9].map(refundCase), // { id: 'order-7', input: { order: 7 }, expected: { output, trajectory } }
    task: ({ order: id }, { runOptions }) =>
      run(refundDesk(id, careless), `Refund order ${id}`, runOptions),
    scorers: [trajectoryMatch(), exactMatch(), stopReasonIs('completed'), noErrors()],
    trials: 1,
  });

  const baseline = await runEval(refunds, { traceDir: 'traces/evals' });
  baseline.means; // { trajectory: 1, exact: 1, stop_reason: 1, errors: 1 }

  careless = true; // a prompt change that makes the desk refund without looking the order up
  const candidate = await runEval(refunds);
  candidate.cases
    .filter(each => each.scores.trajectory!.score < 1)
    .map(each => `${each.id}: ${each.scores.trajectory!.reason}`);
  // ['order-7: step 1: refund({"order":7}) where the reference has lookup({"order":7})', …]

  const comparison = compareEvals(baseline, candidate, { tolerance: 0 });
  comparison.scorers[0]; // { scorer: 'trajectory', baseline: 1, candidate: 0, difference: -1, interval: [-1, -1], regressed: [order-7, order-8, order-9], … }
  comparison.regressed; // true: what fails a CI step

  expect(baseline.means).toEqual({ trajectory: 1, exact: 1, stop_reason: 1, errors: 1 });
  expect(candidate.means).toEqual({ trajectory: 0, exact: 1, stop_reason: 1, errors: 1 });
  expect(comparison.scorers[0]?.regressed.map(each => each.id)).toEqual([
    'order-7',
    'order-8',
    'order-9',
  ]);
  expect(candidate.cases[0]?.scores.trajectory?.reason).toBe(
    'step 1: refund({"order":7}) where the reference has lookup({"order":7})',
  );
});

// The same eval beside the tests: a test per scorer, failing under its threshold.
describeEval(
  defineEval<{ order: number }>({
    name: 'refunds',
    data: [7, 8, 9].map(refundCase),
    task: ({ order: id }, { runOptions }) => run(refundDesk(id), `Refund order ${id}`, runOptions),
    scorers: [trajectoryMatch(), exactMatch()],
  }),
  { threshold: { trajectory: 1, exact: 0.9 } },
);

it('keeps experiments in a store: what identifies them, their cost, a baseline, SQL over them', async () => {
  const root = mkdtempSync(join(tmpdir(), 'agent-trace-guide-store-'));
  const refunds = defineEval<{ order: number }>({
    name: 'refunds',
    data: [7, 8, 9].map(refundCase),
    task: ({ order: id }, { runOptions }) => run(refundDesk(id), `Refund order ${id}`, runOptions),
    scorers: [trajectoryMatch(), exactMatch()],
  });
  await runExperiment(refunds, { root, git: { branch: 'main' } });

  const { experiment } = await runExperiment(refunds, { root });
  experiment.git; // { commit: '4f1c…', branch: 'fix-prompt', dirty: true }
  experiment.means; // { trajectory: 1, exact: 1 }
  experiment.costUsd; // the task's calls and its judges', of the priced models
  experiment.status; // 'completed'

  const store = new ExperimentStore({ root });
  const baseline = await store.baselineFor(experiment); // the newest completed experiment on main before it
  const trend = await store.query(
    `SELECT e.id, e.branch, avg(s.score) AS mean FROM experiments e
     JOIN scores s ON s.experiment = e.id
     WHERE e.eval = 'refunds' AND s.scorer = 'trajectory'
     GROUP BY ALL ORDER BY e.id DESC LIMIT 20`,
  );

  expect(experiment.means).toEqual({ trajectory: 1, exact: 1 });
  expect(experiment.status).toBe('completed');
  expect(baseline?.git.branch).toBe('main');
  expect(trend).toHaveLength(2);
  expect(experiment.datasetHash).toBe(baseline?.datasetHash);
});
