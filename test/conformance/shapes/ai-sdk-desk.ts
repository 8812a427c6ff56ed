/**
 * An AI SDK agent as users write one: a writer whose model asks for three tools at once (the
 * weather of two cities, which finish out of order, and a researcher: a tool whose `execute`
 * runs another agent with `generateText`), then answers. `generateText` or `streamText`.
 */
import { agentTraceTelemetry, aiSdkAgent, aiSdkModel, type AiSdkRerun } from '@agent-trace/ai-sdk';
import { jsonlSink } from '@agent-trace/trace';
import { generateText, isStepCount, streamText, tool, type ToolSet } from 'ai';
import { z } from 'zod';
import { instructions, script, everyChange, after } from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

const scripts = () => ({
  writer: script([
    {
      toolCalls: [
        { name: 'weather', args: { city: 'Paris' } },
        { name: 'weather', args: { city: 'Oslo' } },
        { name: 'research', args: { question: 'Why is Oslo cold?' } },
      ],
    },
    { text: 'Paris is mild, Oslo cold: it is far north.' },
  ]),
  researcher: script([
    { toolCalls: [{ name: 'search', args: { query: 'Oslo climate' } }] },
    { text: 'Oslo is far north.' },
  ]),
});

/** Today's agent, `generateText` or `streamText`, with `change` planted. */
export function desk(mode: 'generate' | 'stream', change?: Change) {
  return async ({ input, model, tools, telemetry }: AiSdkRerun): Promise<unknown> => {
    const search = tool({
      description: 'Searches the web',
      inputSchema: z.object({ query: z.string() }),
      execute: ({ query }) => Promise.resolve(`results for ${query}`),
    });
    const weather = tool({
      description:
        change === 'tool description'
          ? 'The weather in a city, in Fahrenheit'
          : 'The weather in a city',
      inputSchema: z.object({ city: z.string() }),
      // Paris answers last: results arrive out of call order.
      execute: ({ city }) =>
        change === 'tool output'
          ? Promise.resolve({ city, celsius: 40 })
          : after(city === 'Paris' ? 30 : 5, { city, celsius: city === 'Oslo' ? -3 : 18 }),
    });
    const research = tool({
      description: 'Asks the researcher',
      inputSchema: z.object({ question: z.string() }),
      execute: async ({ question }) => {
        const answer = await generateText({
          model: model('researcher'),
          system: instructions(change, 'Search, then answer in a sentence.'),
          tools: tools({ search }),
          stopWhen: isStepCount(4),
          prompt: question,
          telemetry: { ...telemetry, functionId: 'researcher' },
        });
        return answer.text;
      },
    });
    const offered = (change === 'tool removed' ? { weather } : { weather, research }) as ToolSet;
    const settings = {
      model: model('writer'),
      system: 'Answer with the tools.',
      tools: tools(offered),
      stopWhen: isStepCount(5),
      prompt: input,
      telemetry: { ...telemetry, functionId: 'writer' },
    };
    if (mode === 'generate') return (await generateText(settings)).text;
    const streamed = streamText(settings);
    return await streamed.text;
  };
}

/** Records today's agent on its scripts into the JSONL trace `file`. */
export async function recordDesk(mode: 'generate' | 'stream', file: string): Promise<void> {
  const sink = jsonlSink(file);
  const telemetry = agentTraceTelemetry({ trace: sink });
  const models = scripts();
  await desk(mode)({
    input: 'Paris and Oslo: how warm, and why?',
    model: (name = 'ai-sdk') => aiSdkModel(models[name as keyof typeof models]),
    tools: tools => tools,
    telemetry: { integrations: [telemetry] },
  });
  await telemetry.flush();
  await sink.close();
}

/** The row of `mode`. */
export function aiSdkShape(mode: 'generate' | 'stream'): Shape {
  return {
    name: `AI SDK ${mode === 'generate' ? 'generateText' : 'streamText'} (parallel tools, a sub-agent tool)`,
    module: `test/conformance/shapes/ai-sdk-${mode}.ts`,
    record: file => recordDesk(mode, file),
    build: change => aiSdkAgent(desk(mode, change)),
    changes: everyChange('writer', {
      changed: 'weather',
      removed: 'research',
      instructed: 'researcher',
    }),
  };
}
