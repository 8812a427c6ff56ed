import { run } from '@agent-trace/core';
import { expect, it } from 'vitest';
import { refundCase, refundDesk } from '../../../test/fixtures/refund-desk.js';
import { defineEval } from './define-eval.js';
import { runEval } from './run-eval.js';
import { trajectoryMatch } from './scorers/trajectory.js';
import { belowThreshold } from './eval-gate.js';

it('says which cases keep a scorer under its threshold, and why', async () => {
  const result = await runEval(
    defineEval<{ order: number }>({
      name: 'refunds',
      data: [1, 2].map(refundCase),
      task: ({ order: id }, { runOptions }) =>
        run(refundDesk(id, id === 2), `Refund order ${id}`, runOptions),
      scorers: [trajectoryMatch()],
    }),
  );
  expect(belowThreshold(result, 'trajectory', 0.5)).toBeUndefined();
  expect(belowThreshold(result, 'trajectory', 1)).toBe(
    "scorer 'trajectory' of eval 'refunds': mean 0.5, under 1. Cases under it:\n" +
      '  order-2#1: 0 (step 1: refund({"order":2}) where the reference has lookup({"order":2}))',
  );
});
