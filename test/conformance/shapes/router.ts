/** A rule router as the entry agent: it routes a refund question to billing, with no model call. */
import { agent } from '@agent-trace/core';
import { ruleRouter } from '@agent-trace/core/router';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  instructions,
  plantedTool,
  plantedTools,
  recordRun,
  script,
  everyChange,
  forkAnswering,
} from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

export function build(change?: Change) {
  const lookup = plantedTool(change, {
    name: 'lookup',
    description: 'Looks an order up',
    input: z.object({ order: z.number() }),
    execute: ({ order }) => ({ order, paid: 80 }),
  });
  const refund = plantedTool(change, {
    name: 'refund',
    description: 'Refunds an order',
    input: z.object({ order: z.number() }),
    execute: () => 'refunded',
  });
  const billing = agent({
    name: 'billing',
    instructions: instructions(change, 'Handle refunds.'),
    model: script([
      { toolCalls: [{ name: 'lookup', args: { order: 7 } }] },
      { text: 'Order 7 paid 80; refund on its way.' },
    ]),
    tools: plantedTools(change, 'refund', [lookup, refund]),
  });
  const general = agent({ name: 'general', model: script([{ text: 'Hello!' }]) });
  return ruleRouter([[/refund/i, 'billing']], { agents: [billing, general], fallback: 'general' });
}

export const shape: Shape = {
  name: 'router',
  module: 'test/conformance/shapes/router.ts',
  record: file => recordRun(file, build(), 'I want a refund for order 7'),
  build,
  changes: everyChange('billing', { changed: 'lookup', removed: 'refund' }),
  fork: forkAnswering(1, 'Refunded.'),
  holds: events =>
    expect(events.some(e => e.event === 'handoff_start' && e.routed_by !== undefined)).toBe(true),
};

export default build();
