/**
 * Tools whose results JSON alone writes otherwise or not at all: a `Map` (the model reads its
 * entries, not `{}`), a `Set` (its values), and a sparse array (its holes `null`, as the JSONL
 * trace keeps them). A rerun says same with the recorded results and with the real tools.
 */
import { agent } from '@agent-trace/core';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  everyChange,
  forkAnswering,
  instructions,
  plantedTool,
  plantedTools,
  recordRun,
  script,
} from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

export function build(change?: Change) {
  const stock = plantedTool(change, {
    name: 'stock',
    description: 'Units in stock, by shelf',
    input: z.object({ sku: z.string() }),
    execute: ({ sku }) => new Map([[sku, { shelf: 4, units: 12 }]]),
  });
  const tags = plantedTool(change, {
    name: 'tags',
    description: 'The tags of a product',
    input: z.object({ sku: z.string() }),
    execute: () => new Set(['lamp', 'desk']),
  });
  const week = plantedTool(change, {
    name: 'week',
    description: 'Units sold each day of the week (a hole: the shop was closed)',
    input: z.object({ sku: z.string() }),
    // eslint-disable-next-line no-sparse-arrays
    execute: () => [3, , 5, 2, , 8, 1],
  });
  return agent({
    name: 'shop',
    instructions: instructions(change, 'Report on stock.'),
    model: script([
      {
        toolCalls: [
          { name: 'stock', args: { sku: 'lamp-1' } },
          { name: 'tags', args: { sku: 'lamp-1' } },
          { name: 'week', args: { sku: 'lamp-1' } },
        ],
      },
      { text: '12 lamps on shelf 4.' },
    ]),
    tools: plantedTools(change, 'tags', [stock, tags, week]),
  });
}

export const shape: Shape = {
  name: 'tools return a Map, a Set and a sparse array',
  module: 'test/conformance/shapes/collection-results.ts',
  record: file => recordRun(file, build(), 'How many lamps?'),
  build,
  liveTools: true,
  changes: everyChange('shop', { changed: 'stock', removed: 'tags' }),
  fork: forkAnswering(1, 'Out of stock.'),
  holds: events => {
    const sent = events.filter(e => e.event === 'llm_start').at(-1);
    const read =
      sent?.event === 'llm_start' ? sent.messages.map(m => ('content' in m ? m.content : '')) : [];
    expect(read).toEqual(
      expect.arrayContaining([
        '{"lamp-1":{"shelf":4,"units":12}}',
        '["lamp","desk"]',
        '[3,null,5,2,null,8,1]',
      ]),
    );
  },
};

export default build();
