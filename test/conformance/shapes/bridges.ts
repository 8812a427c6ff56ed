/**
 * The Agents SDK and LangGraph rows: the desks of the bridge tests (a handoff and an agent used
 * as a tool; the prebuilt ReAct agent asking another through a tool), recorded into a JSONL file
 * as an application does, and a StateGraph whose two nodes run at once.
 */
import {
  langchainModel,
  langgraphAgent,
  agentTraceCallbacks,
  type LanggraphRerun,
} from '@agent-trace/langgraph';
import { openaiAgentsAgent, openaiAgentsModel, withAgentTrace } from '@agent-trace/openai-agents';
import { jsonlSink } from '@agent-trace/trace';
import { SystemMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { run, withTrace } from '@openai/agents';
import { expect } from 'vitest';
import * as agentsDesk from '../../fixtures/agents/openai-agents-desk.js';
import * as graphDesk from '../../fixtures/agents/langgraph-desk.js';
import { instructions, script } from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

/** The fixtures' name for a planted change. */
const fixtureChange = (change?: Change) =>
  change === 'tool removed' ? ('removed tool' as const) : change;

const changes: Shape['changes'] = {
  instructions: { agent: 'forecaster' },
  'tool description': { agent: 'researcher', tool: 'weather' },
  'tool removed': { agent: 'researcher', tool: 'weather' },
  'tool output': { agent: 'researcher', tool: 'weather' },
};

export const agentsSdk: Shape = {
  name: 'OpenAI Agents SDK (a handoff, an agent used as a tool)',
  module: 'test/conformance/shapes/openai-agents.ts',
  record: async file => {
    const sink = jsonlSink(file);
    const byAgent = agentsDesk.scripts();
    await withAgentTrace({ trace: sink }, () =>
      run(
        agentsDesk.desk({
          model: name => openaiAgentsModel(byAgent[name as keyof typeof byAgent], { agent: name }),
          tools: tools => tools,
        }),
        'Is Oslo cold?',
      ),
    );
    await sink.close();
  },
  build: change =>
    openaiAgentsAgent(rerun => run(agentsDesk.desk(rerun, fixtureChange(change)), rerun.input)),
  changes,
  holds: events => {
    expect(events.some(e => e.event === 'handoff_start' && e.mode === 'pass_control')).toBe(true);
    expect(events.some(e => e.event === 'handoff_start' && e.mode === 'return_to_caller')).toBe(
      true,
    );
  },
};

/** Two questions to the desk inside one `withTrace`: a run each. */
export const agentsSdkWithTrace: Shape = {
  ...agentsSdk,
  name: 'OpenAI Agents SDK, several runs in one withTrace',
  runs: 2,
  record: async file => {
    const sink = jsonlSink(file);
    const ask = (question: string) => {
      const byAgent = agentsDesk.scripts();
      return run(
        agentsDesk.desk({
          model: name => openaiAgentsModel(byAgent[name as keyof typeof byAgent], { agent: name }),
          tools: tools => tools,
        }),
        question,
      );
    };
    await withAgentTrace({ trace: sink }, () =>
      withTrace('desk', async () => {
        await ask('Is Oslo cold?');
        await ask('And Rome?');
      }),
    );
    await sink.close();
  },
  holds: events =>
    expect(
      events.filter(e => e.event === 'run_start').map(e => e.event === 'run_start' && e.input),
    ).toEqual(['Is Oslo cold?', 'And Rome?']),
};

export const langgraphPrebuilt: Shape = {
  name: 'LangGraph prebuilt ReAct agent (another asked through a tool)',
  module: 'test/fixtures/agents/langgraph-desk.ts',
  record: async file => {
    const sink = jsonlSink(file);
    const byAgent = graphDesk.scripts();
    const callbacks = agentTraceCallbacks({ trace: sink });
    await graphDesk
      .forecaster({
        model: name => langchainModel(byAgent[name as keyof typeof byAgent], { agent: name }),
        tools: tools => tools,
      })
      .invoke(
        { messages: [{ role: 'user', content: 'Is Oslo cold?' }] },
        { callbacks: [callbacks] },
      );
    await callbacks.flush();
    await sink.close();
  },
  build: change =>
    langgraphAgent(({ input, callbacks, ...rerun }) =>
      graphDesk
        .forecaster(rerun, fixtureChange(change))
        .invoke({ messages: [{ role: 'user', content: input }] }, { callbacks }),
    ),
  changes,
};

/** A StateGraph whose two nodes (each an agent) run at once, then a writer joins them. */
export function parallelGraph({ model }: Pick<LanggraphRerun, 'model'>, change?: Change) {
  const node =
    (name: string, said: string, delayMs: () => number) =>
    async (state: typeof MessagesAnnotation.State) => {
      await new Promise(resolve => setTimeout(resolve, delayMs()));
      return { messages: [await model(name).invoke([new SystemMessage(said), ...state.messages])] };
    };
  return (
    new StateGraph(MessagesAnnotation)
      // The two side by side take a random time on every run, as the real world's nodes do.
      .addNode(
        'prices',
        node('prices', 'Find the prices.', () => Math.floor(Math.random() * 20)),
      )
      .addNode(
        'reviews',
        node('reviews', instructions(change, 'Find the reviews.'), () =>
          Math.floor(Math.random() * 20),
        ),
      )
      .addNode(
        'writer',
        node('writer', 'Write the answer.', () => 0),
      )
      .addEdge(START, 'prices')
      .addEdge(START, 'reviews')
      .addEdge('prices', 'writer')
      .addEdge('reviews', 'writer')
      .addEdge('writer', END)
      .compile({ name: 'shop' })
  );
}

export const parallelGraphScripts = () => ({
  prices: script([{ text: 'Lamp A costs 12, lamp B 15.' }]),
  reviews: script([{ text: 'Lamp B is better reviewed.' }]),
  writer: script([{ text: 'Lamp B: 15, better reviewed.' }]),
});

export const langgraphParallel: Shape = {
  name: 'LangGraph StateGraph with parallel nodes (each taking a random time)',
  module: 'test/conformance/shapes/langgraph-parallel.ts',
  record: async file => {
    const sink = jsonlSink(file);
    const byAgent = parallelGraphScripts();
    const callbacks = agentTraceCallbacks({ trace: sink });
    await parallelGraph({
      model: name => langchainModel(byAgent[name as keyof typeof byAgent], { agent: name }),
    }).invoke({ messages: [{ role: 'user', content: 'Which lamp?' }] }, { callbacks: [callbacks] });
    await callbacks.flush();
    await sink.close();
  },
  build: change =>
    langgraphAgent(({ input, callbacks, model }) =>
      parallelGraph({ model }, change).invoke(
        { messages: [{ role: 'user', content: input }] },
        { callbacks },
      ),
    ),
  changes: { instructions: { agent: 'reviews' } },
};
