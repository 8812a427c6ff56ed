import { aiSdkModel } from '@agent-trace/ai-sdk';
import { fakeLLM } from '@agent-trace/testing';
import { generateText, isStepCount, tool } from 'ai';
import { expect, it } from 'vitest';
import { z } from 'zod';

it("runs a user's AI SDK agent from a FakeLLM script, with the installed ai package", async () => {
  const add = tool({
    description: 'Add two numbers',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => Promise.resolve(a + b),
  });
  const model = aiSdkModel(
    fakeLLM([{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }]),
  );
  const { text, steps } = await generateText({
    model,
    tools: { add },
    stopWhen: isStepCount(3),
    prompt: 'What is 2 + 3?',
  });
  expect(text).toBe('The sum is 5.');
  expect(steps[0]?.toolResults[0]?.output).toBe(5);
});
