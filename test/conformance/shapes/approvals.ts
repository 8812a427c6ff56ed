/** The approval rows: approve, reject and edit, each decided in a second process. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { script as scripted } from '../harness/plant.js';
import type { Shape } from '../harness/shape.js';
import { build } from './approval.js';

const exec = promisify(execFile);
const processScript = 'test/conformance/shapes/approval-process.ts';

function approvalShape(decision: 'approve' | 'reject' | 'edit'): Shape {
  return {
    name: `approval (${decision}) across two processes`,
    module: 'test/conformance/shapes/approval.ts',
    record: async file => {
      const state = `${file}.state.json`;
      await exec(process.execPath, ['--import', 'tsx', processScript, 'pause', file, state]);
      await exec(process.execPath, [
        '--import',
        'tsx',
        processScript,
        'resume',
        file,
        state,
        decision,
      ]);
    },
    build: change => build(change),
    changes: {
      instructions: { agent: 'desk' },
      'tool description': { agent: 'desk', tool: 'refund' },
      'tool removed': { agent: 'desk', tool: 'lookup' },
      'tool output': { agent: 'desk', tool: 'lookup' },
    },
    fork: {
      afterStep: 2,
      model: () => scripted([{ text: 'Refused, as you asked.' }]),
      // The pause before the fork point is decided anew: the refund is refused.
      decisions: [{ callId: 'refund', decision: 'reject', by: 'cli', reason: 'try the fork' }],
      expect: report => {
        expect(report.result).toMatchObject({
          stopReason: 'completed',
          output: 'Refused, as you asked.',
        });
        expect(report.events.find(e => e.event === 'approval_resolved')).toMatchObject({
          decision: 'rejected',
          reason: 'try the fork',
        });
      },
    },
    holds: events => {
      const recorded = { approve: 'approved', reject: 'rejected', edit: 'edited' }[decision];
      expect(events.find(e => e.event === 'approval_resolved')).toMatchObject({
        decision: recorded,
      });
      expect(events.filter(e => e.event === 'run_start')).toHaveLength(2);
    },
  };
}

export const approvalShapes = [
  approvalShape('approve'),
  approvalShape('reject'),
  approvalShape('edit'),
];
