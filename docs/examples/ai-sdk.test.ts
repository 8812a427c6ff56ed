// docs/guide/ai-sdk.md: an AI SDK agent, unchanged, run offline from a FakeLLM script and recorded.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTraceTelemetry, aiSdkModel, rerunAiSdkTrace } from '@agent-trace/ai-sdk';
import { defineEval, includes, runEval, trajectoryMatch } from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink, validateTraceFile } from '@agent-trace/trace';
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

it('records the AI SDK agent as an agent-trace trace', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-guide-ai-sdk-')), 'forecast.jsonl');
  const script = fakeLLM([
    { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
    { text: 'Oslo is at -3 °C.' },
  ]);
  const model = aiSdkModel(script);

  const telemetry = agentTraceTelemetry({ trace: jsonlSink(file) });
  await generateText({
    model,
    tools: { weather },
    stopWhen: isStepCount(5),
    prompt: 'How cold is Oslo?',
    telemetry: { functionId: 'forecaster', integrations: [telemetry] },
  });
  await telemetry.flush(); // then: agent-trace replay, view, stats, diff on the file

  const report = await validateTraceFile(file);
  expect(report.valid).toBe(true);
  expect(report.runs).toMatchObject([{ agent: 'forecaster', stopReason: 'completed' }]);
});

it('reruns the AI SDK agent against its recording', async () => {
  const trace = memorySink();
  const telemetry = agentTraceTelemetry({ trace });
  const script = fakeLLM([
    { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
    { text: 'Oslo is at -3 °C.' },
  ]);
  await generateText({
    model: aiSdkModel(script),
    system: 'Use the weather tool.',
    tools: { weather },
    stopWhen: isStepCount(5),
    prompt: 'How cold is Oslo?',
    telemetry: { functionId: 'forecaster', integrations: [telemetry] },
  });
  await telemetry.flush();
  const recorded = trace.events;

  // Today's code, given its model, tools and telemetry by the rerun:
  const report = await rerunAiSdkTrace(recorded, ({ input, model, tools, telemetry }) =>
    generateText({
      model: model('forecaster'),
      system: 'Use the weather tool.',
      tools: tools({ weather }),
      stopWhen: isStepCount(5),
      prompt: input,
      telemetry: { ...telemetry, functionId: 'forecaster' },
    }),
  );
  report.same; // true: or report.firstDivergence says where and what changed

  expect(report.same).toBe(true);
});

it('an AI SDK agent is an eval task: its recorded trace is what the trajectory scorer reads', async () => {
  const cities = ['Oslo', 'Rome']; // the desk mistakes Rome for Roma
  const result = await runEval(
    defineEval<{ city: string }>({
      name: 'forecasts',
      data: cities.map(city => ({
        id: city,
        input: { city },
        expected: { output: city, trajectory: [{ tool: 'weather', args: { city } }] },
      })),
      task: async ({ city }, { runOptions }) => {
        // The case's sinks: the bridge writes the case's trace where the scorers read it.
        const telemetry = agentTraceTelemetry({ trace: runOptions.trace ?? [] });
        const { text } = await generateText({
          model: aiSdkModel(
            fakeLLM([
              { toolCalls: [{ name: 'weather', args: { city: city === 'Rome' ? 'Roma' : city } }] },
              { text: `${city}: done.` },
            ]),
          ),
          tools: { weather },
          stopWhen: isStepCount(3),
          prompt: `Weather in ${city}?`,
          telemetry: { functionId: 'forecaster', integrations: [telemetry] },
        });
        await telemetry.flush();
        return text;
      },
      scorers: [trajectoryMatch(), includes()],
    }),
  );
  expect(result.cases.map(each => [each.id, each.scores.trajectory?.score])).toEqual([
    ['Oslo', 1],
    ['Rome', 0],
  ]);
  expect(result.cases[1]?.scores.trajectory?.reason).toBe(
    'step 1: weather({"city":"Roma"}) where the reference has weather({"city":"Rome"})',
  );
  expect(result.means.includes).toBe(1);
});
