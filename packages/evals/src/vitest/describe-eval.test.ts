import { run } from '@agent-trace/core';
import { refundCase, refundDesk } from '../../../../test/fixtures/refund-desk.js';
import { defineEval } from '../define-eval.js';
import { exactMatch } from '../scorers/output.js';
import { trajectoryMatch } from '../scorers/trajectory.js';
import { describeEval } from './index.js';

// An eval as tests: a test per scorer, held to its threshold.
describeEval(
  defineEval<{ order: number }>({
    name: 'refunds',
    data: [1, 2, 3].map(refundCase),
    task: ({ order: id }, { runOptions }) => run(refundDesk(id), `Refund order ${id}`, runOptions),
    scorers: [trajectoryMatch(), exactMatch()],
  }),
  { threshold: { trajectory: 1, exact: 1 } },
);
