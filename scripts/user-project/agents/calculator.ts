// The calculator agent of test/agent.test.ts as a module of its own, so `agent-trace rerun
// traces/user.jsonl --agent agents/calculator.ts` reruns that recording against this code.
import { agent, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { z } from 'zod';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

export default agent({
  name: 'calculator',
  model: fakeLLM([], { allowUnusedSteps: true }),
  tools: [add],
});
