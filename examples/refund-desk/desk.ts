import { agent, tool, type LanguageModel } from '@agent-trace/core';
import type { FakeLLMStep } from '@agent-trace/testing';
import { z } from 'zod';

/** The orders the desk knows. */
const orders: Readonly<Record<number, { readonly customer: string; readonly total: number }>> = {
  42: { customer: 'Aiko', total: 120.5 },
  43: { customer: 'Bruno', total: 35 },
};

const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Looks an order up: its customer and total.',
  input: z.object({ order: z.number().int() }),
  execute: ({ order }) => orders[order] ?? { error: `no order ${order}` },
});

/** Refunds above 50 wait for a person's approval; smaller ones run at once. */
export const refund = tool({
  name: 'refund',
  description: 'Refunds an amount of an order to the customer.',
  input: z.object({ order: z.number().int(), amount: z.number().positive() }),
  needsApproval: ({ amount }) => amount > 50,
  execute: ({ order, amount }) => ({ refunded: amount, order, reference: `RF-${order}-${amount}` }),
});

/** The refund desk on `model`. */
export const refundDesk = (model: LanguageModel) =>
  agent({
    name: 'refund_desk',
    instructions:
      'You handle refund requests: look the order up, then refund what the customer asks for. Refunds above 50 need a manager.',
    model,
    tools: [lookupOrder, refund],
  });

/** What the scripted model does before the pause: looks order 42 up, then asks to refund it all. */
export const beforePause: readonly FakeLLMStep[] = [
  { toolCalls: [{ name: 'lookup_order', args: { order: 42 } }] },
  { toolCalls: [{ name: 'refund', args: { order: 42, amount: 120.5 }, id: 'refund_42' }] },
];

/** After the pause, the scripted model answers from what the refund call gave back. */
export const afterPause: readonly FakeLLMStep[] = [
  request => {
    const last = request.messages.at(-1);
    const content = last?.role === 'tool' ? last.content : '';
    if (content.startsWith('The call was refused'))
      return {
        text: 'A manager declined the full refund of 120.50 for order 42; I can offer store credit instead.',
      };
    const { refunded, reference } = JSON.parse(content) as { refunded: number; reference: string };
    return { text: `Refunded ${refunded} on order 42 (reference ${reference}).` };
  },
];
