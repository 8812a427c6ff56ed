/**
 * A shipping desk with a bug in production: asked where an order is, it looks the order up and
 * says it arrives tomorrow, even when the order is delayed (prompt `v1`). `v2` reads the status.
 * Its model answers by rules from the conversation (a stateless script), so a run is the same
 * whenever it runs and the suite needs no key.
 */
import { agent, tool, type LanguageModel } from '@agent-trace/core';
import { fakeLLM, type FakeLLMCall } from '@agent-trace/testing';
import { z } from 'zod';

export const prompts = {
  v1: 'You answer where an order is: look it up, then say when it arrives.',
  v2: 'You answer where an order is: look it up, then say when it arrives; a delayed order says so, with its new date.',
} as const;

export type DeskVersion = keyof typeof prompts;

/** Every fifth order is delayed. */
const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Look an order up by its number',
  input: z.object({ order: z.number().int() }),
  execute: ({ order }) =>
    order % 5 === 0
      ? { order, status: 'delayed', arrives: 'Friday' }
      : { order, status: 'on its way', arrives: 'tomorrow' },
});

const orderIn = (call: FakeLLMCall): number => {
  const asked = call.messages.find(message => message.role === 'user');
  return Number(/\d+/.exec(typeof asked?.content === 'string' ? asked.content : '')?.[0] ?? 0);
};

/** How the desk's model answers: look the order up, then say what the prompt says to. */
function answer(call: FakeLLMCall) {
  const order = orderIn(call);
  const last = call.messages.at(-1);
  if (last?.role !== 'tool')
    return { toolCalls: [{ name: 'lookup_order', args: { order }, id: 'lookup_1' }] };
  const found = JSON.parse(String(last.content)) as { status: string; arrives: string };
  if (call.instructions === prompts.v2 && found.status === 'delayed')
    return { text: `Order ${order} is delayed: it arrives on ${found.arrives}.` };
  return { text: `Order ${order} arrives tomorrow.` };
}

/** The desk's model: rules over the conversation. */
export const deskModel = (): LanguageModel =>
  fakeLLM([], { onUnexpectedCall: answer, allowUnusedSteps: true });

/** The desk with the prompt of `version`. */
export function shippingDesk(version: DeskVersion = 'v1', model: LanguageModel = deskModel()) {
  return agent({ name: 'shipping', instructions: prompts[version], model, tools: [lookupOrder] });
}
