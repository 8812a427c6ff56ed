/**
 * Agents SDK agents where a forecaster asks one researcher (an agent used as a tool) about two
 * cities at once; the researcher's weather lookups take a random time on every recording, so the
 * two researchers' second model calls come in either order. A rerun gives each its own answers.
 */
import {
  openaiAgentsAgent,
  openaiAgentsModel,
  withAgentTrace,
  type OpenaiAgentsRerun,
} from '@agent-trace/openai-agents';
import { jsonlSink } from '@agent-trace/trace';
import { Agent, run, tool } from '@openai/agents';
import { z } from 'zod';
import { instructions, after } from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';
import { askedTwice, askedTwiceChanges, askedTwiceScripts } from './asked-twice.js';

const scripts = () => askedTwiceScripts('ask_researcher', 'input');

/** Today's agents with `change` planted. */
export function forecaster(
  { model, tools }: Pick<OpenaiAgentsRerun, 'model' | 'tools'>,
  change?: Change,
): Agent<unknown, 'text'> {
  const weather = tool({
    name: 'weather',
    description:
      change === 'tool description'
        ? 'The weather in a city, in Fahrenheit'
        : 'The weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) =>
      change === 'tool output'
        ? `${city}: 40 °C`
        : after(Math.floor(Math.random() * 20), `${city}: ${city === 'Oslo' ? -3 : 18} °C`),
  });
  const researcher = new Agent({
    name: 'researcher',
    instructions: instructions(change, 'Look the weather up.'),
    tools: change === 'tool removed' ? [] : tools([weather]),
    model: model('researcher'),
  });
  return new Agent({
    name: 'forecaster',
    instructions: 'Ask the researcher about each city at once.',
    tools: [
      researcher.asTool({ toolName: 'ask_researcher', toolDescription: 'Ask the researcher' }),
    ],
    model: model('forecaster'),
  });
}

export const shape: Shape = {
  name: 'OpenAI Agents SDK: an agent used as a tool asked twice at once, finishing in random order',
  module: 'test/conformance/shapes/openai-agents-twice.ts',
  record: async file => {
    const sink = jsonlSink(file);
    const byAgent = scripts();
    await withAgentTrace({ trace: sink }, () =>
      run(
        forecaster({
          model: name => openaiAgentsModel(byAgent[name as keyof typeof byAgent], { agent: name }),
          tools: tools => tools,
        }),
        'Oslo and Rome?',
      ),
    );
    await sink.close();
  },
  build: change => openaiAgentsAgent(rerun => run(forecaster(rerun, change), rerun.input)),
  changes: askedTwiceChanges('researcher', 'weather'),
  holds: askedTwice('researcher'),
};

export default openaiAgentsAgent(rerun => run(forecaster(rerun), rerun.input));
