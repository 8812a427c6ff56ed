/** The approval rows: approve, reject and edit, each decided in a second process. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { script as scripted } from '../harness/plant.js';
import type { Shape } from '../harness/shape.js';
import { build } from './approval.js';

const exec = promisify(execFile);
const processScript = 'test/conformance/shapes/approval-process.ts';

function approvalShape(decision: 'approve' | 'reject' | 'edit', fresh = false): Shape {
  const own = fresh ? ['x', 'fresh'] : [];
  return {
    name: `approval (${decision}) across two processes${fresh ? ', each with its own counting ids and stepping clock' : ''}`,
    module: 'test/conformance/shapes/approval.ts',
    record: async file => {
      const state = `${file}.state.json`;
      await exec(process.execPath, [
        '--import',
        'tsx',
        processScript,
        'pause',
        file,
        state,
        ...own,
      ]);
      await exec(process.execPath, [
        '--import',
        'tsx',
        processScript,
        'resume',
        file,
        state,
        decision,
        ...own.slice(1),
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
      if (fresh) goesOnAfterPause(events);
    },
  };
}

/**
 * A run resumed in a new process goes on after its paused part: no span id given twice, and no
 * time earlier than the pause.
 */
export function goesOnAfterPause(events: Parameters<NonNullable<Shape['holds']>>[0]): void {
  const starts = events.filter(e => e.event.endsWith('_start') || e.event === 'approval_resolved');
  expect(new Set(starts.map(e => e.span_id)).size).toBe(starts.length);
  const times = events.map(e => Date.parse(e.time));
  expect(times).toEqual([...times].sort((a, b) => a - b));
}

export const approvalShapes = [
  approvalShape('approve'),
  approvalShape('reject'),
  approvalShape('edit'),
  approvalShape('approve', true),
];
