// docs/guide/ai-sdk.md: an AI SDK agent, unchanged, run offline from a FakeLLM script.
import { aiSdkModel } from '@agent-trace/ai-sdk';
import { fakeLLM } from '@agent-trace/testing';
import { generateText, isStepCount, tool } from 'ai';
import { expect, it } from 'vitest';
import { z } from 'zod';

// The application's agent: the model is a parameter, as most AI SDK code already has it.
const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => Promise.resolve({ city, celsius: city === 'Oslo' ? -3 : 18 }),
});
const forecast = (model: Parameters<typeof generateText>[0]['model'], question: string) =>
  generateText({
    model,
    system: 'Use the weather tool.',
    tools: { weather },
    stopWhen: isStepCount(5),
    prompt: question,
  });

it('runs the AI SDK agent from a FakeLLM script', async () => {
  const script = fakeLLM([
    { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
    { text: 'Oslo is at -3 °C.' },
  ]);
  const { text, steps } = await forecast(aiSdkModel(script), 'How cold is Oslo?');
  text; // 'Oslo is at -3 °C.'
  script.calls[1]?.messages.at(-1); // { role: 'tool', toolName: 'weather', content: '{"city":"Oslo","celsius":-3}', … }

  expect(text).toBe('Oslo is at -3 °C.');
  expect(steps).toHaveLength(2);
  expect(script.calls[1]?.messages.at(-1)).toMatchObject({
    role: 'tool',
    toolName: 'weather',
    content: '{"city":"Oslo","celsius":-3}',
  });
});
