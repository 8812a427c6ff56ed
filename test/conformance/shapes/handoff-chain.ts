/** A handoff chain: triage hands off to billing, which hands off to refunds, which answers. */
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
    execute: ({ order }) => ({ order, paid: 120 }),
  });
  const refund = plantedTool(change, {
    name: 'refund',
    description: 'Refunds an order',
    input: z.object({ order: z.number() }),
    execute: ({ order }) => ({ order, refunded: true }),
  });
  const refunds = agent({
    name: 'refunds',
    instructions: 'Refund the order.',
    model: script([
      { toolCalls: [{ name: 'refund', args: { order: 42 } }] },
      { text: 'Order 42 is refunded.' },
    ]),
    tools: [refund],
  });
  const billing = agent({
    name: 'billing',
    instructions: instructions(change, 'Look the order up, then pass it to refunds.'),
    model: script([
      { toolCalls: [{ name: 'lookup', args: { order: 42 } }] },
      { toolCalls: [{ name: 'transfer_to_refunds' }] },
    ]),
    tools: plantedTools(change, 'lookup', [lookup]),
    handoffs: [refunds],
  });
  return agent({
    name: 'triage',
    instructions: 'Send billing questions to billing.',
    model: script([{ toolCalls: [{ name: 'transfer_to_billing' }] }]),
    handoffs: [billing],
  });
}

export const shape: Shape = {
  name: 'handoff chain',
  module: 'test/conformance/shapes/handoff-chain.ts',
  record: file => recordRun(file, build(), 'Refund order 42'),
  build,
  changes: everyChange('billing', { changed: 'lookup', removed: 'lookup' }),
  fork: {
    afterStep: 2,
    model: () => script([{ text: 'Billing will call you back.' }]),
    expect: report =>
      expect(report.result).toMatchObject({
        agent: 'billing',
        output: 'Billing will call you back.',
      }),
  },
  holds: events => expect(events.filter(e => e.event === 'handoff_start')).toHaveLength(2),
};

export default build();
