// docs/guide/langgraph.md: a LangGraph agent, unchanged, recorded, rerun against its recording,
// scored by an eval, and run offline from a FakeLLM script.
import { defineEval, includes, runEval, trajectoryMatch } from '@agent-trace/evals';
import { agentTraceCallbacks, langchainModel, rerunLanggraphTrace } from '@agent-trace/langgraph';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink, readTrace } from '@agent-trace/trace';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { z } from 'zod';

const weather = tool(
  ({ city }: { city: string }) => JSON.stringify({ city, celsius: city === 'Oslo' ? -3 : 18 }),
  {
    name: 'weather',
    description: 'The weather in a city',
    schema: z.object({ city: z.string() }),
  },
);

/** The guide's forecaster: the prebuilt ReAct agent on a script. */
function scripted() {
  const forecaster = createReactAgent({
    llm: langchainModel(
      fakeLLM([
        { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
        { text: 'Oslo is at -3 °C.' },
      ]),
      { agent: 'forecaster' },
    ),
    tools: [weather],
    prompt: 'Use the weather tool.',
    name: 'forecaster',
  });
  return forecaster;
}

it('runs the prebuilt ReAct agent from a FakeLLM script and records it', async () => {
  const forecaster = scripted();
  const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-guide-langgraph-')), 'run.jsonl');
  const callbacks = agentTraceCallbacks({ trace: jsonlSink(file) });
  const state = await forecaster.invoke(
    { messages: [{ role: 'user', content: 'How cold is Oslo?' }] },
    { callbacks: [callbacks] },
  );
  await callbacks.flush(); // then: agent-trace replay, view, stats, diff on the file

  expect(state.messages.at(-1)?.content).toBe('Oslo is at -3 °C.');
  const events = [];
  for await (const event of readTrace(file)) events.push(event);
  expect(events.filter(event => event.event === 'llm_end')).toHaveLength(2);
  expect(events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'completed' });
});

it('reruns the agent against its recording', async () => {
  const recording = memorySink();
  const recorder = agentTraceCallbacks({ trace: recording });
  await scripted().invoke(
    { messages: [{ role: 'user', content: 'How cold is Oslo?' }] },
    { callbacks: [recorder] },
  );
  await recorder.flush();
  const recorded = recording.events;
  const report = await rerunLanggraphTrace(
    recorded,
    ({ input, history, model, tools, callbacks }) =>
      createReactAgent({
        llm: model('forecaster'),
        tools: tools([weather]),
        prompt: 'Use the weather tool.',
        name: 'forecaster',
      }).invoke({ messages: [...history, { role: 'user', content: input }] }, { callbacks }),
  );
  report.same; // true: or report.firstDivergence says where and what changed

  expect(report.same).toBe(true);
});

it('a LangGraph agent is an eval task: its recorded trace is what the trajectory scorer reads', async () => {
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
        const callbacks = agentTraceCallbacks({ trace: runOptions.trace ?? [] });
        const state = await createReactAgent({
          llm: langchainModel(
            fakeLLM([
              { toolCalls: [{ name: 'weather', args: { city: city === 'Rome' ? 'Roma' : city } }] },
              { text: `${city}: done.` },
            ]),
          ),
          tools: [weather],
          name: 'forecaster',
        }).invoke(
          { messages: [{ role: 'user', content: `Weather in ${city}?` }] },
          { callbacks: [callbacks] },
        );
        await callbacks.flush();
        return state.messages.at(-1)?.text ?? '';
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
