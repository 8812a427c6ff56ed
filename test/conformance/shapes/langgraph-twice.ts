/**
 * A LangGraph prebuilt ReAct forecaster that asks a researcher (a ReAct agent of its own, through
 * a tool) about two cities at once; the researcher's weather lookups take a random time on every
 * recording, so the two researchers' second model calls come in either order. A rerun gives each
 * its own recorded answers.
 */
import {
  agentTraceCallbacks,
  langchainModel,
  langgraphAgent,
  type LanggraphRerun,
} from '@agent-trace/langgraph';
import { jsonlSink } from '@agent-trace/trace';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { after, instructions } from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';
import { askedTwice, askedTwiceChanges, askedTwiceScripts } from './asked-twice.js';

const scripts = () => askedTwiceScripts('ask_researcher', 'question');

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : JSON.stringify(content ?? '');

/** Today's forecaster with `change` planted. */
export function forecaster(
  { model, tools }: Pick<LanggraphRerun, 'model' | 'tools'>,
  change?: Change,
) {
  const weather = tool(
    ({ city }: { city: string }) =>
      change === 'tool output'
        ? `${city}: 40 °C`
        : after(Math.floor(Math.random() * 20), `${city}: ${city === 'Oslo' ? -3 : 18} °C`),
    {
      name: 'weather',
      description:
        change === 'tool description'
          ? 'The weather in a city, in Fahrenheit'
          : 'The weather in a city',
      schema: z.object({ city: z.string() }),
    },
  );
  const researcher = createReactAgent({
    llm: model('researcher'),
    tools: change === 'tool removed' ? [] : tools([weather]),
    prompt: instructions(change, 'Look the weather up.'),
    name: 'researcher',
  });
  const askResearcher = tool(
    async ({ question }: { question: string }) => {
      const state = await researcher.invoke({ messages: [{ role: 'user', content: question }] });
      return textOf(state.messages.at(-1)?.content);
    },
    {
      name: 'ask_researcher',
      description: 'Ask the researcher',
      schema: z.object({ question: z.string() }),
    },
  );
  return createReactAgent({
    llm: model('forecaster'),
    tools: [askResearcher],
    prompt: 'Ask the researcher about each city at once.',
    name: 'forecaster',
  });
}

export const shape: Shape = {
  name: 'LangGraph: a ReAct agent asked through a tool twice at once, finishing in random order',
  module: 'test/conformance/shapes/langgraph-twice.ts',
  record: async file => {
    const sink = jsonlSink(file);
    const byAgent = scripts();
    const callbacks = agentTraceCallbacks({ trace: sink });
    await forecaster({
      model: name => langchainModel(byAgent[name as keyof typeof byAgent], { agent: name }),
      tools: tools => tools,
    }).invoke(
      { messages: [{ role: 'user', content: 'Oslo and Rome?' }] },
      { callbacks: [callbacks] },
    );
    await callbacks.flush();
    await sink.close();
  },
  build: change =>
    langgraphAgent(({ input, callbacks, ...rerun }) =>
      forecaster(rerun, change).invoke(
        { messages: [{ role: 'user', content: input }] },
        { callbacks },
      ),
    ),
  changes: askedTwiceChanges('researcher', 'weather'),
  holds: askedTwice('researcher'),
};

export default shape.build();
