// docs/guide/loop.md: structured output, and memory across runs.
import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';

const lookup = tool({
  name: 'lookup',
  description: 'Looks an order up',
  input: z.object({ order: z.number() }),
  execute: ({ order }) => ({ order, status: 'paid', amount: 42 }),
});

it('asks for the structured answer once the tools are done, and decodes it', async () => {
  const model = fakeLLM([
    { toolCalls: [{ name: 'lookup', args: { order: 42 } }] },
    { text: 'The order is paid; I would approve.' },
    { text: '{"verdict":"approve"}' },
  ]);
  const judge = agent({
    name: 'judge',
    model,
    tools: [lookup],
    output: z.object({ verdict: z.enum(['approve', 'reject']) }),
  });
  const { output } = await run(judge, 'Refund order 42?'); // output: { verdict: 'approve' | 'reject' } | undefined
  expect(output).toEqual({ verdict: 'approve' });
  // The last request asked for JSON with the tools off and the schema on.
  expect(model.calls.at(-1)).toMatchObject({
    toolNames: [],
    responseFormat: { name: 'judge_output' },
  });
});
