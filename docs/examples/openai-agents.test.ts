// docs/guide/openai-agents.md: OpenAI Agents SDK agents, unchanged, recorded, rerun against their
// recording, scored by an eval, and run offline from FakeLLM scripts.
import { includes, defineEval, runEval, trajectoryMatch } from '@agent-trace/evals';
import {
  agentTraceProcessor,
  openaiAgentsModel,
  rerunOpenaiAgentsTrace,
  withAgentTrace,
} from '@agent-trace/openai-agents';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink, readTrace } from '@agent-trace/trace';
import { addTraceProcessor, Agent, run, setTracingDisabled, tool } from '@openai/agents';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { z } from 'zod';

const weather = tool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: city === 'Oslo' ? -3 : 18 }),
});

const forecasterOn = (script: ReturnType<typeof fakeLLM>) =>
  new Agent({
    name: 'forecaster',
    instructions: 'Use the weather tool.',
    tools: [weather],
    model: openaiAgentsModel(script, { agent: 'forecaster' }),
  });

const oslo = () =>
  fakeLLM([
    { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
    { text: 'Oslo is at -3 °C.' },
  ]);

it('records the runs of an Agents SDK agent through its tracing processor', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-guide-openai-agents-')), 'run.jsonl');
  const triage = Agent.create({
    name: 'triage',
    handoffs: [forecasterOn(oslo())],
    model: openaiAgentsModel(
      fakeLLM([{ toolCalls: [{ name: 'transfer_to_forecaster', args: {} }] }]),
      { agent: 'triage' },
    ),
  });
  setTracingDisabled(false);
  const processor = agentTraceProcessor({ trace: jsonlSink(file) });
  addTraceProcessor(processor);
  const result = await run(triage, 'Is Oslo cold?');
  await processor.flush(); // then: agent-trace replay, view, stats, diff on the file

  expect(result.finalOutput).toBe('Oslo is at -3 °C.');
  const events = [];
  for await (const event of readTrace(file)) events.push(event);
  expect(events.filter(event => event.event === 'agent_start').map(event => event.agent)).toEqual([
    'triage',
    'forecaster',
  ]);
});

it('records only the runs its work starts', async () => {
  const forecaster = forecasterOn(oslo());
  const answer = await withAgentTrace({ trace: memorySink() }, () =>
    run(forecaster, 'How cold is Oslo?'),
  );
  expect(answer.finalOutput).toBe('Oslo is at -3 °C.');
});

it('reruns the agent against its recording', async () => {
  const recording = memorySink();
  await withAgentTrace({ trace: recording }, () => run(forecasterOn(oslo()), 'How cold is Oslo?'));
  const recorded = recording.events;
  const report = await rerunOpenaiAgentsTrace(recorded, ({ input, model, tools }) =>
    run(
      new Agent({
        name: 'forecaster',
        instructions: 'Use the weather tool.',
        tools: tools([weather]),
        model: model('forecaster'),
      }),
      input,
    ),
  );
  report.same; // true: or report.firstDivergence says where and what changed

  expect(report.same).toBe(true);
});

it('an Agents SDK agent is an eval task: its recorded trace is what the trajectory scorer reads', async () => {
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
        const forecaster = forecasterOn(
          fakeLLM([
            { toolCalls: [{ name: 'weather', args: { city: city === 'Rome' ? 'Roma' : city } }] },
            { text: `${city}: done.` },
          ]),
        );
        // The case's sinks: the bridge writes the case's trace where the scorers read it.
        const result = await withAgentTrace({ trace: runOptions.trace ?? [] }, () =>
          run(forecaster, `Weather in ${city}?`),
        );
        return String(result.finalOutput);
      },
      scorers: [trajectoryMatch(), includes()],
    }),
  );
  expect(result.cases.map(each => [each.id, each.scores.trajectory?.score])).toEqual([
    ['Oslo', 1],
    ['Rome', 0],
  ]);
  expect(result.means.includes).toBe(1);
});

it('runs the OpenAI Agents SDK agent from a FakeLLM script', async () => {
  setTracingDisabled(true); // the SDK would otherwise try to export its traces to OpenAI
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
