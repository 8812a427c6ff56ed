/**
 * The desk's model, scripted by rules so that it needs no key: it reads the customer's last
 * message and the tool results as a model would, and follows the policies its instructions hold
 * (the refund limit). Deterministic: the same request gets the same answer.
 */
import type { LanguageModel, Message } from '@agent-trace/core';
import { fakeLLM, type FakeAnswerStep, type FakeLLMCall } from '@agent-trace/testing';

/** What a customer's message asks for. */
type Intent = 'refund' | 'address' | 'cancel' | 'where' | 'thanks' | 'other';

const intents: readonly (readonly [Intent, RegExp])[] = [
  ['refund', /\brefund/i],
  ['address', /\baddress/i],
  ['cancel', /\bcancel/i],
  ['where', /\b(where|when|status)\b/i],
  ['thanks', /\b(thanks|thank you|bye)\b/i],
];

const intentOf = (text: string): Intent =>
  intents.find(([, words]) => words.test(text))?.[0] ?? 'other';

/** The desk's model. */
export const deskModel = (): LanguageModel => fakeLLM([], { onUnexpectedCall: answer });

function answer(call: FakeLLMCall): FakeAnswerStep {
  const last = call.messages.at(-1);
  const asked = call.messages.findLast(
    (message): message is Extract<Message, { role: 'user' }> => message.role === 'user',
  );
  const said = asked?.content ?? '';
  if (last?.role === 'tool') return afterTool(last, intentOf(said), said, call.instructions);
  const id = /\b(\d{2})\b/.exec(said)?.[1];
  const intent = intentOf(said);
  if (intent === 'thanks') return { text: 'You are welcome! Anything else?' };
  if (intent === 'other' && id === undefined) return { text: 'How can I help you today?' };
  if (id === undefined) return { text: 'Which order is it? Please give me its number.' };
  return { toolCalls: [{ name: 'order', args: { id: Number(id) } }] };
}

/** What the desk does once a tool answered: the next call, or its reply. */
function afterTool(
  result: Extract<Message, { role: 'tool' }>,
  intent: Intent,
  said: string,
  instructions: string,
): FakeAnswerStep {
  if (result.isError === true) return { text: `Sorry: ${result.content}` };
  const found = JSON.parse(result.content) as Record<string, unknown>;
  const id = Number(found.id);
  switch (result.toolName) {
    case 'refund':
      return { text: `Refunded $${String(found.refunded)} for order ${id}.` };
    case 'change_address':
      return { text: `Order ${id} will now go to ${String(found.address)}.` };
    case 'cancel':
      return { text: `Order ${id} is cancelled.` };
    default:
      return onOrder(found, intent, said, instructions);
  }
}

/** The order was looked up: what the customer asked for, as the policies allow. */
function onOrder(
  order: Record<string, unknown>,
  intent: Intent,
  said: string,
  instructions: string,
): FakeAnswerStep {
  const id = Number(order.id);
  const status = String(order.status);
  const amount = Number(order.amount);
  if (intent === 'refund') {
    const limit = Number(/Refunds up to \$(\d+)/.exec(instructions)?.[1] ?? 0);
    if (amount <= limit) return { toolCalls: [{ name: 'refund', args: { id } }] };
    return { text: `Order ${id} is over $${limit}: a manager will review the refund.` };
  }
  if (intent === 'address' || intent === 'cancel') {
    if (status !== 'processing')
      return { text: `Order ${id} has already shipped: it cannot be changed now.` };
    if (intent === 'cancel') return { toolCalls: [{ name: 'cancel', args: { id } }] };
    const address = /\bto (.+?)[.!]?$/.exec(said)?.[1] ?? '';
    return { toolCalls: [{ name: 'change_address', args: { id, address } }] };
  }
  return { text: `Order ${id} (${String(order.item)}) is ${status}.` };
}
