/**
 * The support desk `agent-trace regress` is shown on: a rule router hands each request to a
 * specialist (orders, refunds, accounts), whose model answers from the conversation (a stateless
 * script, so a run is the same whenever it runs). Versions of the refunds agent's prompt change
 * what that agent does, and nothing else.
 */
import { agent, tool, type LanguageModel } from '@agent-trace/core';
import { ruleRouter } from '@agent-trace/core/router';
import { fakeLLM, type FakeLLMCall } from '@agent-trace/testing';
import { z } from 'zod';

/** The orders the desk knows; a request for any other fails or is turned away. */
const orders: Readonly<Record<number, number>> = { 1: 20, 2: 45, 3: 80, 4: 12, 5: 60 };

const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Looks an order up: whether it exists, and its total.',
  input: z.object({ order: z.number().int() }),
  execute: ({ order }) =>
    orders[order] === undefined ? { found: false } : { found: true, total: orders[order] },
});

const refund = tool({
  name: 'refund',
  description: 'Refunds an order in full.',
  input: z.object({ order: z.number().int() }),
  execute: ({ order }) => {
    if (orders[order] === undefined) throw new Error(`no order ${order}`);
    return { refunded: orders[order] };
  },
});

const resetPassword = tool({
  name: 'reset_password',
  description: "Sends a password reset link to the customer's e-mail.",
  input: z.object({ email: z.string() }),
  execute: ({ email }) => ({ sent: email }),
});

/** The refunds agent's prompt, by version of today's code. */
export const refundPrompts = {
  /** As recorded: refund at once. */
  v1: 'You handle refunds: refund the order the customer names.',
  /** Looks the order up first, and turns unknown orders away instead of failing. */
  v2: 'You handle refunds: look the order up first; refund it only if it exists.',
  /** A bad change: refunds need a manager now, so the agent refunds nothing. */
  v3: 'You handle refunds: tell the customer a manager will call back; do not refund.',
} as const;

export type DeskVersion = keyof typeof refundPrompts;

/** The number in the customer's request: the order, or 0. */
const orderIn = (call: FakeLLMCall): number => {
  const asked = call.messages.find(message => message.role === 'user');
  return Number(/\d+/.exec(typeof asked?.content === 'string' ? asked.content : '')?.[0] ?? 0);
};

/** What a tool answered last in the conversation, parsed; undefined before any tool ran. */
const lastResult = (call: FakeLLMCall): { readonly text: string } | undefined => {
  const last = call.messages.at(-1);
  return last?.role === 'tool' ? { text: String(last.content) } : undefined;
};

/** A call to `name` with `args`, its id made from the conversation (the same in every run). */
const calling = (call: FakeLLMCall, name: string, args: Record<string, unknown>) => {
  const turn = call.messages.filter(message => message.role === 'assistant').length + 1;
  return { toolCalls: [{ name, args, id: `${name}_${turn}` }] };
};

/** How each specialist's model answers, from the conversation so far and its instructions. */
function answer(call: FakeLLMCall) {
  const order = orderIn(call);
  const result = lastResult(call);
  if (call.agentName === 'orders')
    return result === undefined
      ? calling(call, 'lookup_order', { order })
      : { text: `Order ${order}: ${result.text}` };
  if (call.agentName === 'accounts')
    return result === undefined
      ? calling(call, 'reset_password', { email: `customer${order}@example.com` })
      : { text: 'A reset link is on its way.' };
  return refunds(call, order, result);
}

/** The refunds agent: what its prompt says it does. */
function refunds(call: FakeLLMCall, order: number, result: { readonly text: string } | undefined) {
  if (call.instructions === refundPrompts.v3)
    return { text: 'A manager will call you back about the refund.' };
  if (call.instructions === refundPrompts.v2) {
    if (result === undefined) return calling(call, 'lookup_order', { order });
    if (result.text.includes('"found":false')) return { text: `There is no order ${order}.` };
    if (!result.text.includes('refunded')) return calling(call, 'refund', { order });
    return { text: `Order ${order} is refunded.` };
  }
  if (result === undefined) return calling(call, 'refund', { order });
  return {
    text: result.text.includes('refunded') ? `Order ${order} is refunded.` : 'The refund failed.',
  };
}

/** A model that answers every call from the conversation, for every agent of the desk. */
export const deskModel = (): LanguageModel =>
  fakeLLM([], { onUnexpectedCall: answer, allowUnusedSteps: true });

/**
 * The desk as today's code has it: the refunds agent's prompt of `version`, on `model`. Circuit
 * breakers are off: shared by the runs of a process, they would fail the refunds that follow a
 * few unknown orders, which is another story.
 */
export function supportDesk(version: DeskVersion = 'v1', model: LanguageModel = deskModel()) {
  const specialist = (
    name: string,
    instructions: string,
    tools: Parameters<typeof agent>[0]['tools'],
  ) => agent({ name, instructions, model, tools, limits: { maxSteps: 5 }, circuitBreaker: false });
  return ruleRouter(
    [
      [/refund/i, 'refunds'],
      [/password/i, 'accounts'],
    ],
    {
      name: 'desk',
      agents: [
        specialist('orders', 'You answer questions about orders: look the order up.', [
          lookupOrder,
        ]),
        specialist('refunds', refundPrompts[version], [lookupOrder, refund]),
        specialist('accounts', 'You reset passwords.', [resetPassword]),
      ],
      fallback: 'orders',
    },
  );
}

/** The requests of the recorded week: a seeded mix of intents, some for orders that do not exist. */
export function requests(count: number, seed = 7): string[] {
  let state = seed;
  const next = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return Array.from({ length: count }, () => {
    const order = 1 + Math.floor(next() * 7); // orders 6 and 7 do not exist
    const intent = next();
    return intent < 0.3
      ? `Please refund order ${order}`
      : intent < 0.5
        ? `I forgot my password (customer ${order})`
        : `Where is order ${order}?`;
  });
}
