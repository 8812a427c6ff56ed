/**
 * An order desk for conversations: it looks orders up and answers across turns. Its scripted
 * model answers a three-turn conversation (`customerTurns`), so it needs no key.
 *
 * As a module the CLI reads (`agent-trace rerun <trace> --agent examples/conversations/desk.ts`),
 * its default export is the desk: a rerun answers from the recording, turn by turn.
 */
import { agent, tool, type LanguageModel } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { z } from 'zod';

const order = tool({
  name: 'order',
  description: 'An order by id',
  input: z.object({ id: z.number() }),
  execute: ({ id }) => ({ id, status: id === 42 ? 'broken on arrival' : 'shipped' }),
});

/** What the customer says, turn by turn. */
export const customerTurns = [
  'My order 42 arrived broken.',
  'A refund, and where is 43?',
  'Thanks!',
] as const;

/** The desk's scripted answers to those turns: one tool call, then two, then none. */
export const deskModel = (): LanguageModel =>
  fakeLLM(
    [
      { toolCalls: [{ name: 'order', args: { id: 42 } }] },
      { text: 'Order 42 arrived broken. A refund or a new one?' },
      { toolCalls: [{ name: 'order', args: { id: 42 } }] },
      { toolCalls: [{ name: 'order', args: { id: 43 } }] },
      { text: 'Refunded order 42; order 43 has shipped.' },
      { text: 'You are welcome.' },
    ],
    // A conversation may end before the script does.
    { allowUnusedSteps: true },
  );

/** The order desk; `maxSteps` bounds each turn's model calls. */
export const orderDesk = (model: LanguageModel = deskModel(), maxSteps = 5) =>
  agent({
    name: 'desk',
    model,
    instructions: 'Help customers with orders.',
    tools: [order],
    limits: { maxSteps },
  });

export default orderDesk();
