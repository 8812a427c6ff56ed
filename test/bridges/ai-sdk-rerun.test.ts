import {
  agentTraceTelemetry,
  aiSdkModel,
  rerunAiSdkTrace,
  type AiSdkRerun,
} from '@agent-trace/ai-sdk';
import { sequentialIds, steppingClock } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { formatDivergence, memorySink } from '@agent-trace/trace';
import { generateText, isStepCount, tool, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** The application's weather agent as the code defines it; the test plants changes through `change`. */
function forecaster(
  change: { instructions?: string; description?: string; withoutTool?: boolean } = {},
) {
  const weather = tool({
    description: change.description ?? 'The weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: ({ city }) => Promise.resolve({ city, celsius: city === 'Oslo' ? -3 : 18 }),
  });
  return ({ model, tools, telemetry, input }: AiSdkRerun) =>
    generateText({
      model: model('forecaster'),
      system: change.instructions ?? 'Use the weather tool.',
      tools: tools((change.withoutTool === true ? {} : { weather }) as ToolSet),
      stopWhen: isStepCount(5),
      prompt: input,
      telemetry: { ...telemetry, functionId: 'forecaster' },
    });
}

/** A recorded run of today's forecaster, on a script. */
async function recording() {
  const trace = memorySink();
  const telemetry = agentTraceTelemetry({ trace, clock: steppingClock(), ids: sequentialIds() });
  const model = aiSdkModel(
    fakeLLM([
      { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
      { toolCalls: [{ name: 'weather', args: { city: 'Rome' } }] },
      { text: 'Oslo is at -3 °C, Rome at 18 °C.' },
    ]),
  );
  await forecaster()({
    input: 'Oslo and Rome?',
    model: () => model,
    tools: tools => tools,
    telemetry: { integrations: [telemetry] },
  });
  await telemetry.flush();
  return trace.events;
}

describe('an AI SDK agent rerun against its recording', () => {
  it('is the same when the code did not change: the recorded answers and tool results replay', async () => {
    const report = await rerunAiSdkTrace(await recording(), forecaster());
    expect(report.differences).toEqual([]);
    expect(report.same).toBe(true);
    expect((report.result as { text: string }).text).toBe('Oslo is at -3 °C, Rome at 18 °C.');
  });

  it('catches changed instructions at the first model call, and says what changed', async () => {
    const report = await rerunAiSdkTrace(
      await recording(),
      forecaster({ instructions: 'Use the weather tool; answer in Fahrenheit.' }),
    );
    expect(report.same).toBe(false);
    expect(report.firstDivergence?.seq).toBe(2);
    expect(formatDivergence(report.firstDivergence!)).toContain(
      'changed:  the instructions: Use the weather tool{+; answer in Fahrenheit+}.',
    );
  });

  it('catches a changed tool description at the first model call', async () => {
    const report = await rerunAiSdkTrace(
      await recording(),
      forecaster({ description: 'Current weather by city name' }),
    );
    expect(report.same).toBe(false);
    expect(report.firstDivergence?.seq).toBe(2);
    expect(formatDivergence(report.firstDivergence!)).toContain(
      "changed:  tool 'weather' description: [-The-]{+Current+} weather [-in a-]{+by+} city {+name+}",
    );
  });

  it('catches a removed tool: the recorded answer asks for a tool today’s agent no longer has', async () => {
    const report = await rerunAiSdkTrace(await recording(), forecaster({ withoutTool: true }));
    expect(report.same).toBe(false);
    // The first model call is sent without the tool: that is where today's run parts ways.
    expect(report.firstDivergence?.seq).toBe(2);
    expect(report.firstDivergence?.explanation?.map(change => change.summary)).toEqual([
      "the tool list: 'weather' removed",
    ]);
  });
});
