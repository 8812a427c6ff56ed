import { agentTraceTelemetry, aiSdkModel } from '@agent-trace/ai-sdk';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { generateText, isStepCount, tool } from 'ai';
import { expect, it } from 'vitest';
import { z } from 'zod';

it("runs a user's AI SDK agent from a FakeLLM script and records it, with the installed ai package", async () => {
  const add = tool({
    description: 'Add two numbers',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => Promise.resolve(a + b),
  });
  const model = aiSdkModel(
    fakeLLM([{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }]),
  );
  const trace = memorySink();
  const telemetry = agentTraceTelemetry({ trace });
  const { text, steps } = await generateText({
    model,
    tools: { add },
    stopWhen: isStepCount(3),
    prompt: 'What is 2 + 3?',
    telemetry: { functionId: 'calculator', integrations: [telemetry] },
  });
  await telemetry.flush();
  expect(text).toBe('The sum is 5.');
  expect(steps[0]?.toolResults[0]?.output).toBe(5);
  expect(validateTrace(trace.events).problems).toEqual([]);
  expect(trace.events.map(event => event.event)).toContain('tool_end');
});
