/**
 * An AI SDK agent that asks one sub-agent two questions at once (an advisor asked about two
 * resorts): each advisor call searches, then answers. The searches take a random time on every
 * recording, as the real world's do, so the two advisors' second model calls come in either order;
 * a rerun gives each call its own recorded answers whatever order they ask in.
 */
import { agentTraceTelemetry, aiSdkAgent, aiSdkModel, type AiSdkRerun } from '@agent-trace/ai-sdk';
import { jsonlSink } from '@agent-trace/trace';
import { generateText, isStepCount, tool } from 'ai';
import { z } from 'zod';
import { instructions, script, after } from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';
import { askedTwice, askedTwiceChanges } from './asked-twice.js';

const scripts = () => ({
  planner: script([
    {
      toolCalls: [
        { name: 'advise', args: { resort: 'Chamonix' } },
        { name: 'advise', args: { resort: 'Zermatt' } },
      ],
    },
    { text: 'Both are good; Zermatt is higher.' },
  ]),
  // The advisor's first two answers go to the two calls in the order they ask; the last two to
  // whichever search came back first.
  advisor: script([
    { toolCalls: [{ name: 'snow', args: { resort: 'Chamonix' } }] },
    { toolCalls: [{ name: 'snow', args: { resort: 'Zermatt' } }] },
    { text: 'First back: good snow.' },
    { text: 'Second back: deep snow.' },
  ]),
});

/** Today's agent with `change` planted. */
export function planner(change?: Change) {
  return async ({ input, model, tools, telemetry }: AiSdkRerun): Promise<unknown> => {
    const snow = tool({
      description:
        change === 'tool description'
          ? 'Snow depth at a resort, in inches'
          : 'Snow depth at a resort',
      inputSchema: z.object({ resort: z.string() }),
      execute: ({ resort }) =>
        change === 'tool output'
          ? Promise.resolve(`${resort}: no snow`)
          : after(Math.floor(Math.random() * 20), `${resort}: ${resort.length * 10} cm`),
    });
    const advise = tool({
      description: 'Asks the advisor about a resort',
      inputSchema: z.object({ resort: z.string() }),
      execute: async ({ resort }) =>
        (
          await generateText({
            model: model('advisor'),
            system: instructions(change, 'Check the snow, then advise in a sentence.'),
            tools: tools(change === 'tool removed' ? {} : { snow }),
            stopWhen: isStepCount(3),
            prompt: `How is ${resort}?`,
            telemetry: { ...telemetry, functionId: 'advisor' },
          })
        ).text,
    });
    return (
      await generateText({
        model: model('planner'),
        system: 'Ask the advisor about each resort at once.',
        tools: tools({ advise }),
        stopWhen: isStepCount(3),
        prompt: input,
        telemetry: { ...telemetry, functionId: 'planner' },
      })
    ).text;
  };
}

export const shape: Shape = {
  name: 'AI SDK: one sub-agent asked twice at once, its calls finishing in random order',
  module: 'test/conformance/shapes/ai-sdk-twice.ts',
  record: async file => {
    const sink = jsonlSink(file);
    const telemetry = agentTraceTelemetry({ trace: sink });
    const models = scripts();
    await planner()({
      input: 'Chamonix or Zermatt?',
      model: (name = 'ai-sdk') => aiSdkModel(models[name as keyof typeof models]),
      tools: tools => tools,
      telemetry: { integrations: [telemetry] },
    });
    await telemetry.flush();
    await sink.close();
  },
  build: change => aiSdkAgent(planner(change)),
  changes: askedTwiceChanges('advisor', 'snow'),
  holds: askedTwice('advisor'),
};

export default aiSdkAgent(planner());
