// docs/guide/react.md: an agent that talks tools in ReAct text.
import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';

const calculator = tool({
  name: 'calculator',
  description: 'Evaluates a + b',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const search = tool({
  name: 'search',
  description: 'Searches the web',
  input: z.object({ query: z.string() }),
  execute: () => 'nothing found',
});

it('reads actions from the text, answers with observations, and ends on the final answer', async () => {
  const model = fakeLLM([
    {
      text: 'Thought: I should add.\nAction: calculator\nAction Input: {"a": 2, "b": 3}',
    },
    { text: 'Thought: I have it.\nFinal Answer: 5' },
  ]);
  const researcher = agent({
    name: 'researcher',
    model, // any model, openai('gpt-4o-mini') or a FakeLLM: no tool definitions are sent
    tools: [calculator, search],
    toolCalling: 'react',
    limits: { maxMalformedAnswers: 3 },
  });
  const trace = memorySink();
  const result = await run(researcher, '2 + 3?', { trace });
  expect(result.output).toBe('5');
  expect(model.calls[0]).toMatchObject({ toolNames: [], stopSequences: ['\nObservation:'] });
  expect(model.calls[1]?.messages.at(-1)).toMatchObject({
    role: 'user',
    content: 'Observation: 5',
  });
  expect(trace.events.find(event => event.event === 'tool_start')).toMatchObject({
    tool: 'calculator',
    thought: 'I should add.',
  });
});
