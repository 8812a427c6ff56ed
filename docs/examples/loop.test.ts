// docs/guide/loop.md: structured output, memory across runs, and a tool that refuses a call.
import { agent, run, tool, toolError } from '@agent-trace/core';
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

it('hands a refusal to the model to fix, without a retry; a crash is retried', async () => {
  // Products only, for the example: a real calculator parses its expression (never `eval`).
  const evaluate = (expression: string) =>
    expression.split('*').reduce((product, factor) => product * Number(factor), 1);
  const calculator = tool({
    name: 'calculator',
    description: 'Arithmetic',
    input: z.object({ expression: z.string() }),
    execute: ({ expression }) => {
      if (!/^[\d\s+*/().-]+$/.test(expression))
        throw toolError('Only arithmetic: numbers, + - * / and parentheses.');
      return evaluate(expression);
    },
  });
  const model = fakeLLM([
    { toolCalls: [{ name: 'calculator', args: { expression: "__import__('os')" } }] },
    { toolCalls: [{ name: 'calculator', args: { expression: '6 * 7' } }] },
    { text: '42' },
  ]);
  const result = await run(agent({ name: 'math', model, tools: [calculator] }), '6 times 7?');
  expect(result).toMatchObject({ stopReason: 'completed', output: '42' });
  expect(model.calls[1]!.messages.at(-1)).toMatchObject({
    role: 'tool',
    content:
      "Tool 'calculator' refused the call: Only arithmetic: numbers, + - * / and parentheses.",
  });
  expect(result.toolCalls.map(call => call.attempts)).toEqual([1, 1]);
});
