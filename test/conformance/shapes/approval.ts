/**
 * A refund that needs a person's approval: the run pauses in one process, its state is kept in a
 * file, and a second process resumes it with the decision (approve, reject or edit).
 */
import { agent, tool } from '@agent-trace/core';
import { z } from 'zod';
import { instructions, plantedTool, plantedTools, script } from '../harness/plant.js';
import type { Change } from '../harness/shape.js';

/** Today's desk; `part` says which process builds it (a FakeLLM script goes on where it paused). */
export function build(change?: Change, part: 'pause' | 'resume' = 'pause') {
  const refund = tool({
    name: 'refund',
    description:
      change === 'tool description' ? 'Refunds an amount, in cents' : 'Refunds an amount',
    input: z.object({ order: z.number(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 50,
    execute: ({ order, amount }) => ({ order, refunded: amount }),
  });
  const lookup = plantedTool(change, {
    name: 'lookup',
    description: 'Looks an order up',
    input: z.object({ order: z.number() }),
    execute: ({ order }) => ({ order, paid: 120.5 }),
  });
  const answers = [
    { toolCalls: [{ name: 'lookup', args: { order: 42 } }] },
    { toolCalls: [{ name: 'refund', args: { order: 42, amount: 120.5 } }] },
    { text: 'Done: order 42 is settled.' },
  ];
  return agent({
    name: 'desk',
    instructions: instructions(change, 'Refund orders in full.'),
    model: script(part === 'pause' ? answers : answers.slice(2)),
    tools: plantedTools(change, 'lookup', [lookup, refund]),
  });
}

export default build();
