/** Structured output: the first final answer fails the schema, the model is told why, and fixes it. */
import { agent } from '@agent-trace/core';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  instructions,
  plantedTool,
  plantedTools,
  recordRun,
  script,
  everyChange,
} from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

export function build(change?: Change) {
  const lookup = plantedTool(change, {
    name: 'lookup',
    description: 'Looks an order up',
    input: z.object({ order: z.number() }),
    execute: ({ order }) => ({ order, refundable: true }),
  });
  const policy = plantedTool(change, {
    name: 'policy',
    description: 'The refund policy',
    input: z.object({}),
    execute: () => '30 days',
  });
  return agent({
    name: 'judge',
    instructions: instructions(change, 'Decide refunds.'),
    model: script([
      { toolCalls: [{ name: 'lookup', args: { order: 3 } }] },
      { text: 'I approve.' },
      { text: '{"verdict": "yes"}' },
      { text: '{"verdict": "approve"}' },
    ]),
    tools: plantedTools(change, 'policy', [lookup, policy]),
    output: z.object({ verdict: z.enum(['approve', 'reject']) }),
  });
}

export const shape: Shape = {
  name: 'structured output with a decode retry',
  module: 'test/conformance/shapes/structured-output.ts',
  record: file => recordRun(file, build(), 'Refund order 3?'),
  build,
  changes: everyChange('judge', { changed: 'lookup', removed: 'policy' }),
  fork: {
    afterStep: 2,
    model: () => script([{ text: '{"verdict": "reject"}' }]),
    expect: report => expect(report.result).toMatchObject({ output: { verdict: 'reject' } }),
  },
  holds: events =>
    expect(events.filter(e => e.event === 'llm_start' && e.phase === 'final_output')).toHaveLength(
      2,
    ),
};

export default build();
