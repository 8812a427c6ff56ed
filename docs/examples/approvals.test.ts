// docs/guide/testing.md, "Approvals, forks and recorded answers"
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, handoff, run, steppingClock } from '@agent-trace/core';
import { openai } from '@agent-trace/core/openai';
import {
  fakeLLM,
  forkTrace,
  rejectTool,
  runWithApprover,
  withCassette,
} from '@agent-trace/testing';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { memorySink } from '@agent-trace/trace';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { lookupOrder } from './support-agent.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The desk, with the handoff to billing gated: a person approves it. */
function gatedDesk(support: ReturnType<typeof fakeLLM>, billing: ReturnType<typeof fakeLLM>) {
  const billingAgent = agent({ name: 'billing', instructions: 'Handle refunds.', model: billing });
  return agent({
    name: 'support',
    instructions: 'Look orders up; hand refunds to billing.',
    model: support,
    tools: [lookupOrder],
    handoffs: [handoff(billingAgent, { needsApproval: true })],
  });
}

it('answers every pause with a scripted approver', async () => {
  const trace = memorySink();
  const desk = gatedDesk(
    fakeLLM([
      { toolCalls: [{ name: 'lookup_order', args: { orderId: 7 } }] },
      { toolCalls: [{ name: 'transfer_to_billing' }] },
      { text: 'A refund needs a manager; I have noted your request.' },
    ]),
    fakeLLM([], { allowUnusedSteps: true }),
  );
  const { result, pauses } = await runWithApprover(
    desk,
    'Refund order 7',
    rejectTool('transfer_to_billing', 'refunds are paused today', 'lead'),
    { trace, clock: steppingClock() },
  );
  expect(trace).toHaveRequestedApproval('transfer_to_billing');
  expect(trace).toHaveResolvedApproval('transfer_to_billing', 'rejected');
  expect(pauses).toBe(1);
  expect(result.output).toBe('A refund needs a manager; I have noted your request.');
});

it('forks a recorded run: what if the model had answered otherwise at step 2', async () => {
  const recorded = memorySink();
  const script = () =>
    fakeLLM(
      [
        { toolCalls: [{ name: 'lookup_order', args: { orderId: 7 } }] },
        { text: 'Order 7 was delivered.' },
      ],
      { allowUnusedSteps: true },
    );
  const desk = () => agent({ name: 'support', model: script(), tools: [lookupOrder] });
  await run(desk(), 'Where is order 7?', { trace: recorded });
  const fork = await forkTrace(recorded.events, desk(), {
    afterStep: 1,
    model: fakeLLM([{ text: 'Order 7 was delivered on Monday.' }]),
  });
  expect(fork.reproduced).toBe(true);
  expect(fork.result.output).toBe('Order 7 was delivered on Monday.');
});

it('records a cassette once, then answers from it offline', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'cassette-')), 'support.jsonl');
  const baseURL = 'http://support.llm.test/v1';
  server.use(...openaiHandlers([{ text: 'Hello!' }], { baseURL }));
  const model = () => openai('gpt-4o-mini', { apiKey: 'test', baseURL });
  const greeter = (mode: 'record' | 'replay') =>
    agent({ name: 'greeter', model: withCassette(model(), path, { mode }) });
  await run(greeter('record'), 'Hi');
  server.resetHandlers(); // offline from here
  const trace = memorySink();
  const replayed = await run(greeter('replay'), 'Hi', { trace });
  expect(replayed.output).toBe('Hello!');
  expect(trace.events.find(event => event.event === 'llm_end')).toMatchObject({ cache_hit: true });
});
