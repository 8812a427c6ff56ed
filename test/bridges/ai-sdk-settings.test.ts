/**
 * What an AI SDK call is asked with beyond its messages: its tool choice (the call's or
 * prepareStep's) and its settings (temperature, output limit). Both are recorded on each model
 * call, so a rerun of unchanged code is the same and a changed one diverges at the call, in words.
 */
import { agentTraceTelemetry, aiSdkModel, rerunAiSdkTrace } from '@agent-trace/ai-sdk';
import { fakeLLM } from '@agent-trace/testing';
import { formatDivergence, memorySink } from '@agent-trace/trace';
import { generateText, isStepCount, tool, type ToolChoice } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => Promise.resolve({ city, celsius: -3 }),
});

type Tools = { weather: typeof weather };

/** Today's code as the rerun runs it: its tool choice and temperature are what the changes change. */
const forecast =
  (toolChoice: ToolChoice<Tools>, temperature = 0.2) =>
  ({ input, model, tools, telemetry }: Parameters<Parameters<typeof rerunAiSdkTrace>[1]>[0]) =>
    generateText({
      model: model('forecaster'),
      system: 'Use the weather tool.',
      tools: tools({ weather }),
      toolChoice,
      temperature,
      // The first step must call a tool; the next may answer.
      prepareStep: ({ stepNumber }) => (stepNumber === 0 ? {} : { toolChoice: 'auto' as const }),
      stopWhen: isStepCount(3),
      prompt: input,
      telemetry: { ...telemetry, functionId: 'forecaster' },
    });

async function recorded() {
  const trace = memorySink();
  const telemetry = agentTraceTelemetry({ trace });
  const model = aiSdkModel(
    fakeLLM([{ toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }, { text: '-3 °C.' }]),
  );
  await generateText({
    model,
    system: 'Use the weather tool.',
    tools: { weather },
    toolChoice: 'required',
    temperature: 0.2,
    prepareStep: ({ stepNumber }) => (stepNumber === 0 ? {} : { toolChoice: 'auto' as const }),
    stopWhen: isStepCount(3),
    prompt: 'How cold is Oslo?',
    telemetry: { functionId: 'forecaster', integrations: [telemetry] },
  });
  await telemetry.flush();
  return trace.events;
}

describe("an AI SDK call's tool choice and settings", () => {
  it('are recorded on each model call, and an unchanged rerun is the same', async () => {
    const events = await recorded();
    const settings = events.flatMap(event =>
      event.event === 'llm_start' ? [event.model_settings] : [],
    );
    expect(settings).toEqual([
      { temperature: 0.2, toolChoice: 'required' },
      { temperature: 0.2, toolChoice: 'auto' },
    ]);
    expect((await rerunAiSdkTrace(events, forecast('required'))).same).toBe(true);
  });

  it('a changed tool choice or temperature diverges at the first call, saying what changed', async () => {
    const events = await recorded();
    for (const [changed, words] of [
      [forecast('auto'), /toolChoice/],
      [forecast('required', 0.9), /temperature/],
    ] as const) {
      const report = await rerunAiSdkTrace(events, changed);
      expect(report.same).toBe(false);
      const said = formatDivergence(report.firstDivergence!);
      expect(said).toMatch(/model call 1/);
      expect(said).toMatch(words);
    }
  });
});
