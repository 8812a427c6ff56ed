/** A tool that throws, is retried, then succeeds. */
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
  forkAnswering,
} from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

export function build(change?: Change) {
  let calls = 0;
  const inventory = plantedTool(change, {
    name: 'inventory',
    description: 'Units in stock of a product',
    input: z.object({ sku: z.string() }),
    execute: ({ sku }) => {
      calls++;
      if (calls === 1) throw new Error('the warehouse timed out');
      return { sku, units: 12 };
    },
    changed: ({ sku }) => ({ sku, units: 0 }),
  });
  const price = plantedTool(change, {
    name: 'price',
    description: 'The price of a product',
    input: z.object({ sku: z.string() }),
    execute: () => 9.5,
  });
  return agent({
    name: 'shop',
    instructions: instructions(change, 'Check stock before answering.'),
    model: script([
      { toolCalls: [{ name: 'inventory', args: { sku: 'A-1' } }] },
      { toolCalls: [{ name: 'price', args: { sku: 'A-1' } }] },
      { text: '12 in stock at 9.50.' },
    ]),
    tools: plantedTools(change, 'price', [inventory, price]),
    retry: { toolRetries: 2 },
  });
}

export const shape: Shape = {
  name: 'tool that throws, then succeeds (retried)',
  module: 'test/conformance/shapes/tool-retries.ts',
  record: file => recordRun(file, build(), 'Is A-1 in stock?'),
  build,
  changes: everyChange('shop', { changed: 'inventory', removed: 'price' }),
  fork: forkAnswering(1, 'In stock.'),
  holds: events => expect(events.some(e => e.event === 'retry')).toBe(true),
};

export default build();
