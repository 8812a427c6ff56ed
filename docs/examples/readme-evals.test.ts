// README.md, "Evaluate it": the calculator of the README's first example, evaluated beside the tests.
import { z } from 'zod';
import { agent, tool } from '@agent-trace/core';
import { defineEval, exactMatch, trajectoryMatch } from '@agent-trace/evals';
import { describeEval } from '@agent-trace/evals/vitest';
import { fakeLLM } from '@agent-trace/testing';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const calculator = agent({
  name: 'calculator',
  instructions: 'Use the add tool.',
  model: fakeLLM([
    { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, // a step: text and/or tool calls (+ usage)
    { text: 'The sum is 5.' },
  ]),
  tools: [add],
  limits: { maxSteps: 10 },
});

describeEval(
  defineEval({
    name: 'calculator',
    data: [{ input: 'What is 2 + 3?', expected: { output: 'The sum is 5.' } }],
    task: calculator,
    scorers: [exactMatch(), trajectoryMatch([{ tool: 'add', args: { a: 2, b: 3 } }])],
  }),
  { threshold: 1 },
);
