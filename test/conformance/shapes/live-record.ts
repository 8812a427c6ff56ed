/**
 * Tools that change what they handle: `order` gives the shop's own order object, and `refund`, a
 * call later in the same run, changes it, and writes on the input it was given. The trace keeps
 * the order as `order` returned it and `refund`'s input as it was given, so a rerun says same,
 * with the recorded results and with the real tools. Before, an in-memory trace kept the changed
 * order (a rerun with live tools diverged at its result), and every trace kept the changed input
 * (any rerun diverged at `refund`).
 */
import { agent } from '@agent-trace/core';
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
  // The shop's orders, as a store keeps them: the same objects from call to call.
  const orders = new Map([[41, { id: 41, status: 'delivered', refunded: 0 }]]);
  const found = (id: number) => {
    const order = orders.get(id);
    if (order === undefined) throw new Error(`No order ${id}.`);
    return order;
  };
  const order = plantedTool(change, {
    name: 'order',
    description: 'An order by id',
    input: z.object({ id: z.number() }),
    execute: ({ id }) => found(id),
  });
  const refund = plantedTool(change, {
    name: 'refund',
    description: 'Refunds an order',
    input: z.object({ id: z.number(), notes: z.array(z.string()).default([]) }),
    // It also writes on the input it was given (its schema's default list).
    execute: input => {
      const record = found(input.id);
      record.status = 'refunded';
      record.refunded = 80;
      input.notes.push('refunded in full');
      return { id: input.id, refunded: 80 };
    },
  });
  return agent({
    name: 'desk',
    instructions: instructions(change, 'Refund broken orders.'),
    model: script([
      { toolCalls: [{ name: 'order', args: { id: 41 } }] },
      { toolCalls: [{ name: 'refund', args: { id: 41 } }] },
      { text: 'Order 41 is refunded.' },
    ]),
    tools: plantedTools(change, 'refund', [order, refund]),
  });
}

export const shape: Shape = {
  name: 'tools change a record they returned and the input they were given',
  module: 'test/conformance/shapes/live-record.ts',
  record: file => recordRun(file, build(), 'Order 41 arrived broken.'),
  build,
  changes: everyChange('desk', { changed: 'order', removed: 'refund' }),
  fork: forkAnswering(1, 'Refunded.'),
  liveTools: true,
  holds: events => {
    const looked = events.find(event => event.event === 'tool_end' && event.tool === 'order');
    if (
      looked?.event !== 'tool_end' ||
      (looked.result as { status?: string }).status !== 'delivered'
    )
      throw new Error(
        `order's result is recorded as it was changed later: ${JSON.stringify(looked)}`,
      );
  },
};

export default build();
