// docs/guide/openai-agents.md: an OpenAI Agents SDK agent, unchanged, run offline from a FakeLLM script.
import { openaiAgentsModel } from '@agent-trace/openai-agents';
import { fakeLLM } from '@agent-trace/testing';
import { Agent, run, setTracingDisabled, tool } from '@openai/agents';
import { expect, it } from 'vitest';
import { z } from 'zod';

setTracingDisabled(true); // the SDK would otherwise try to export its traces to OpenAI

const weather = tool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: city === 'Oslo' ? -3 : 18 }),
});

it('runs the OpenAI Agents SDK agent from a FakeLLM script', async () => {
  const script = fakeLLM([
    { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
    { text: 'Oslo is at -3 °C.' },
  ]);
  const forecaster = new Agent({
    name: 'forecaster',
    instructions: 'Use the weather tool.',
    tools: [weather],
    model: openaiAgentsModel(script, { agent: 'forecaster' }),
  });
  const result = await run(forecaster, 'How cold is Oslo?');
  result.finalOutput; // 'Oslo is at -3 °C.'

  expect(result.finalOutput).toBe('Oslo is at -3 °C.');
});
