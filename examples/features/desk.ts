/**
 * A customer desk that runs with the example features: it looks a customer up (the result holds
 * an e-mail address, which the scrub keeps from the model) and asks for three customers' orders
 * at once, one call more than the quota allows.
 *
 * As a module the CLI reads (`agent-trace rerun <trace> --agent examples/features/desk.ts`), it
 * exports the agent and the run's features: a rerun needs the same features to decide again.
 */
import { agent, tool, type LanguageModel } from '@agent-trace/core';
import { standardFeatures } from '@agent-trace/core/features';
import { fakeLLM } from '@agent-trace/testing';
import { z } from 'zod';
import { dateNote } from './date-note.js';
import { scrubEmails } from './scrub-emails.js';
import { toolQuota } from './tool-quota.js';

const customer = tool({
  name: 'customer',
  description: 'A customer by id: their name and e-mail address',
  input: z.object({ id: z.number() }),
  execute: ({ id }) => ({ id, name: 'Ana Lima', email: 'ana.lima@example.com' }),
});

const orders = tool({
  name: 'orders',
  description: "A customer's open orders",
  input: z.object({ id: z.number() }),
  execute: ({ id }) => [{ order: 42, customer: id, status: 'shipped' }],
});

/** The desk's scripted model: the customer, then three customers' orders at once, then an answer. */
export const deskModel = (): LanguageModel =>
  fakeLLM([
    { toolCalls: [{ name: 'customer', args: { id: 7 } }] },
    {
      toolCalls: [
        { name: 'orders', args: { id: 7 } },
        { name: 'orders', args: { id: 8 } },
        { name: 'orders', args: { id: 9 } },
      ],
    },
    { text: 'Ana Lima has one open order, 42, shipped; I could look up two of the three.' },
  ]);

/** The customer desk. */
export const desk = (model: LanguageModel = deskModel()) =>
  agent({
    name: 'desk',
    model,
    instructions: 'Answer questions about customers.',
    tools: [customer, orders],
  });

/** The features a run of the desk has: the standard ones and the examples. */
export const features = [...standardFeatures, dateNote(), scrubEmails(), toolQuota(2)];

/** The agent the CLI reruns, and the options its runs have. */
export default desk;
export const runOptions = { features };
