// docs/guide/cost-and-limits.md: prices of your own, a run's cost limit, and an unknown cost.
import { z } from 'zod';
import { agent, run, tool } from '@agent-trace/core';
import { rateLimits } from '@agent-trace/core/rate-limit';
import { memorySink } from '@agent-trace/trace';
import { fakeLLM } from '@agent-trace/testing';
import { expect, it } from 'vitest';

const echo = tool({
  name: 'echo',
  description: 'Echoes',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});
const looping = () =>
  agent({
    name: 'looper',
    model: fakeLLM(
      Array.from({ length: 5 }, () => ({
        toolCalls: [{ name: 'echo', args: { text: 'again' } }],
        usage: { promptTokens: 1000, completionTokens: 100 },
      })),
      { modelId: 'gpt-4o', allowUnusedSteps: true },
    ),
    tools: [echo],
    limits: { maxDuplicateToolCalls: 10 },
  });

it('stops a run past its maxCostUsd with budget_exceeded, the limit named', async () => {
  const trace = memorySink();
  const result = await run(looping(), 'go', {
    trace,
    prices: {
      'fake:gpt-4o': {
        inputPerMillion: 1,
        outputPerMillion: 10,
        source: 'test',
        asOf: '2026-11-24',
      },
    },
    maxCostUsd: 0.002,
  });
  expect(result.stopReason).toBe('budget_exceeded');
  expect(result.limit).toEqual({ name: 'maxCostUsd', value: 0.002 });
  expect(trace.events.at(-1)).toMatchObject({
    event: 'run_end',
    cost: { usd: expect.any(Number) },
  });
});

it('never guesses: a model with no price has an unknown cost, counted and named', async () => {
  const trace = memorySink();
  await run(agent({ name: 'a', model: fakeLLM([{ text: 'hi' }], { modelId: 'gpt-4o' }) }), 'hi', {
    trace,
  });
  expect(trace.events.at(-1)).toMatchObject({
    event: 'run_end',
    cost: { usd: 0, unpriced_calls: 1, unpriced_models: ['fake/gpt-4o'] },
  });
});

it('shares a provider limit between concurrent runs', async () => {
  const questions = ['Order 1?', 'Order 2?', 'Order 3?'];
  const model = fakeLLM(
    questions.map(() => ({ text: 'Paid.' })),
    { provider: 'openai', modelId: 'gpt-4o-mini' },
  );
  const desk = agent({ name: 'desk', model });
  const limits = rateLimits({ openai: { requestsPerMinute: 500, tokensPerMinute: 200_000 } });
  await Promise.all(questions.map(question => run(desk, question, { rateLimits: limits })));
  // Well under the limits: every run is answered without waiting.
  expect(model.calls.map(call => call.messages.at(-1)?.content)).toEqual(questions);
});
