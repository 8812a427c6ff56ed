/**
 * The agent the testing guide tests: a support desk that looks orders up and hands refunds to a
 * billing agent. It takes its models as arguments, so tests choose the script.
 */
import { agent, tool, type LanguageModel } from '@agent-trace/core';
import { z } from 'zod';

export const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Find an order by id',
  input: z.object({ orderId: z.number() }),
  execute: ({ orderId }) => ({ orderId, status: 'delivered', total: 42 }),
});

/** The desk: `support` answers or hands off to `billing`. */
export function supportDesk(models: { support: LanguageModel; billing: LanguageModel }) {
  const billing = agent({
    name: 'billing',
    instructions: 'Handle refunds.',
    model: models.billing,
  });
  return agent({
    name: 'support',
    instructions: 'Look orders up; hand refunds to billing.',
    model: models.support,
    tools: [lookupOrder],
    handoffs: [billing],
    limits: { maxSteps: 5 },
  });
}
