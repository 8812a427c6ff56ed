// docs/guide/testing.md, "Testing against the provider wire format"
import { run, steppingClock } from '@agent-trace/core';
import { anthropic } from '@agent-trace/core/anthropic';
import { openai } from '@agent-trace/core/openai';
import { anthropicHandlers, openaiHandlers } from '@agent-trace/testing/msw';
import { memorySink } from '@agent-trace/trace';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { supportDesk } from './support-agent.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' })); // nothing reaches a real API
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

it('runs the desk on the real OpenAI and Anthropic clients, served from scripts', async () => {
  // The same steps as a fakeLLM script, served as real HTTP: JSON, or SSE when the client streams.
  server.use(
    ...openaiHandlers(
      [
        { toolCalls: [{ name: 'lookup_order', args: { orderId: 7 } }] },
        { toolCalls: [{ name: 'transfer_to_billing' }] },
      ],
      {
        baseURL: 'http://support.llm.test/v1',
      },
    ),
    ...anthropicHandlers(
      [{ error: { status: 529, message: 'Overloaded' } }, { text: 'Refunded 42 EUR.' }],
      {
        baseURL: 'http://billing.llm.test',
      },
    ),
  );
  const trace = memorySink();
  const desk = supportDesk({
    support: openai('gpt-4o-mini', { apiKey: 'test', baseURL: 'http://support.llm.test/v1' }),
    billing: anthropic('claude-sonnet-4-6', { apiKey: 'test', baseURL: 'http://billing.llm.test' }),
  });
  const result = await run(desk, 'Refund order 7', { trace, clock: steppingClock() }); // the 529 is retried

  expect(result.output).toBe('Refunded 42 EUR.');
  expect(trace).toHaveHandedOffTo('billing');
  expect(trace).toBeWellFormedTrace();
});
