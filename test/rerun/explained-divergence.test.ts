import {
  agent,
  run,
  tool,
  type AnyAgent,
  type LanguageModel,
  type TraceEvent,
} from '@agent-trace/core';
import { openai } from '@agent-trace/core/openai';
import { fakeLLM, rerunTrace } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

interface Variant {
  instructions?: string;
  description?: string;
  cityType?: 'string' | 'number';
  extraTool?: boolean;
  weatherResult?: string;
  model?: LanguageModel;
}

/** A triage agent asking for the weather, then answering; each variant changes one part. */
function triage(variant: Variant = {}): AnyAgent {
  const weather = tool({
    name: 'weather',
    description: variant.description ?? 'The weather in a city, in degrees Celsius.',
    input: z.object({ city: variant.cityType === 'number' ? z.number() : z.string() }),
    execute: () => variant.weatherResult ?? 'Paris: 21°C',
  });
  const time = tool({
    name: 'time',
    description: 'The time',
    input: z.object({}),
    execute: () => '12:00',
  });
  return agent({
    name: 'triage',
    instructions: variant.instructions ?? 'Answer briefly. Use the weather tool for weather.',
    model:
      variant.model ??
      fakeLLM(
        [{ toolCalls: [{ name: 'weather', args: { city: 'Paris' } }] }, { text: 'It is 21°C.' }],
        { allowUnusedSteps: true },
      ),
    tools: variant.extraTool === true ? [weather, time] : [weather],
  });
}

async function record(entry: AnyAgent): Promise<TraceEvent[]> {
  const sink = memorySink();
  await run(entry, 'Weather in Paris?', { trace: sink });
  return sink.events;
}

async function divergence(variant: Variant, options: { liveTools?: boolean } = {}) {
  const report = await rerunTrace(await record(triage()), triage(variant), options);
  expect(report.same).toBe(false);
  return report.firstDivergence!;
}

describe('a replay explains how a model request changed', () => {
  it('the instructions, with a word diff', async () => {
    const first = await divergence({
      instructions: 'Answer in full. Use the weather tool for weather.',
    });
    expect(first.expected).toMatch(/^model call 1 of 'triage'/);
    expect(first.explanation).toEqual([
      {
        part: 'instructions',
        summary:
          'the instructions: Answer [-briefly-]{+in full+}. Use the weather tool for weather.',
      },
    ]);
  });

  it("a tool's description", async () => {
    const first = await divergence({
      description: 'The weather in a city, in degrees Fahrenheit.',
    });
    expect(first.explanation).toEqual([
      {
        part: 'tool',
        tool: 'weather',
        summary:
          "tool 'weather' description: The weather in a city, in degrees [-Celsius-]{+Fahrenheit+}.",
      },
    ]);
  });

  it("a tool's schema, as the JSON paths that changed", async () => {
    const first = await divergence({ cityType: 'number' });
    expect(first.explanation).toEqual([
      {
        part: 'tool',
        tool: 'weather',
        summary: `tool 'weather' schema: parameters.properties.city.type: "string" → "number"`,
      },
    ]);
  });

  it('the tool list', async () => {
    const first = await divergence({ extraTool: true });
    expect(first.explanation).toEqual([
      { part: 'tool_list', summary: "the tool list: 'time' added" },
    ]);
  });

  it('a message: its number, role and a word diff', async () => {
    const report = await rerunTrace(
      await record(triage()),
      triage({ weatherResult: 'Paris: 23°C' }),
      { liveTools: true },
    );
    const request = report.differences.find(difference => difference.explanation !== undefined);
    expect(request?.explanation).toEqual([
      {
        part: 'message',
        message: 3,
        role: 'tool',
        summary: "message 3 (tool result of 'weather'): Paris: [-21-]{+23+}°C",
      },
    ]);
  });

  it('the model, at the first model call of the agent', async () => {
    // The recording answers: the new model is never called.
    const report = await rerunTrace(
      await record(triage()),
      triage({ model: fakeLLM([], { modelId: 'gpt-4.1', allowUnusedSteps: true }) }),
    );
    expect(report.firstDivergence).toMatchObject({
      kind: 'changed',
      agent: 'triage',
      seq: report.rerun.find(event => event.event === 'llm_start')?.seq,
      expected: expect.stringMatching(/^model call 1 of 'triage' to fake-model /) as string,
      actual: expect.stringMatching(/^model call 1 of 'triage' to gpt-4.1 /) as string,
      explanation: [
        { part: 'model', summary: "the model: 'fake-model' (fake) → 'gpt-4.1' (fake)" },
      ],
    });
  });

  it("the model's settings", async () => {
    const sink = memorySink();
    const recordedModel = openai('gpt-4o', { apiKey: 'unused', temperature: 0.2 });
    const scripted = fakeLLM(
      [{ toolCalls: [{ name: 'weather', args: { city: 'Paris' } }] }, { text: 'It is 21°C.' }],
      { modelId: 'gpt-4o' },
    );
    // Record with the scripted answers but the settings of the OpenAI model.
    const withSettings: LanguageModel = {
      ...scripted,
      provider: recordedModel.provider,
      settings: recordedModel.settings!,
    };
    await run(triage({ model: withSettings }), 'Weather in Paris?', { trace: sink });
    const report = await rerunTrace(
      sink.events,
      triage({ model: openai('gpt-4o', { apiKey: 'unused', temperature: 0.7 }) }),
    );
    expect(report.firstDivergence?.explanation).toEqual([
      { part: 'model_settings', summary: 'the model settings: temperature 0.2 → 0.7' },
    ]);
  });
});
