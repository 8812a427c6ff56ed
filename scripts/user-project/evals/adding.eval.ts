// A user's eval, run by `agent-trace eval` from the installed CLI with @duckdb/node-api installed.
import { agent, tool } from '@agent-trace/core';
import { defineEval, exactMatch, trajectoryMatch } from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import { z } from 'zod';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

export default defineEval({
  name: 'adding',
  data: [{ id: 'two-and-three', input: 'What is 2 + 3?', expected: { output: '5' } }],
  task: agent({
    name: 'calculator',
    model: fakeLLM([{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: '5' }], {
      allowUnusedSteps: true,
    }),
    tools: [add],
  }),
  scorers: [exactMatch(), trajectoryMatch([{ tool: 'add', args: { a: 2, b: 3 } }])],
});
