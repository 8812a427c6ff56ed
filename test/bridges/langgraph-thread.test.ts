// A LangGraph thread goes on turn by turn from what its checkpointer holds. Its second turn, rerun
// alone, starts from the messages the thread held (read from the recording's first model call),
// not from its input alone: unchanged, it is the same; the input was never "edited".
import { agentTraceCallbacks, langchainModel, rerunLanggraphTrace } from '@agent-trace/langgraph';
import { sequentialIds, steppingClock, type TraceEvent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { formatDivergence, memorySink, recordedRuns, validateTrace } from '@agent-trace/trace';
import { MemorySaver } from '@langchain/langgraph';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const weather = tool(({ city }: { city: string }) => `${city}: -3 °C`, {
  name: 'weather',
  description: 'The weather in a city',
  schema: z.object({ city: z.string() }),
});

const forecaster = (llm: BaseChatModel, tools = [weather], checkpointer?: MemorySaver) =>
  createReactAgent({
    llm,
    tools,
    name: 'forecaster',
    ...(checkpointer === undefined ? {} : { checkpointer }),
  });

/** Two turns of one thread, each a run of the trace. */
async function recordThread(): Promise<TraceEvent[]> {
  const sink = memorySink();
  const callbacks = agentTraceCallbacks({
    trace: sink,
    clock: steppingClock(),
    ids: sequentialIds(),
  });
  const script = fakeLLM([
    { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
    { text: 'Cold: -3 °C in Oslo.' },
    { text: 'You asked about Oslo.' },
  ]);
  const graph = forecaster(
    langchainModel(script, { agent: 'forecaster' }),
    [weather],
    new MemorySaver(),
  );
  const config = { configurable: { thread_id: 'ana' }, callbacks: [callbacks] };
  await graph.invoke({ messages: [{ role: 'user', content: 'Is Oslo cold?' }] }, config);
  await graph.invoke(
    { messages: [{ role: 'user', content: 'Which city did I ask about?' }] },
    config,
  );
  await callbacks.flush();
  return sink.events;
}

describe('a LangGraph thread, rerun turn by turn', () => {
  it('reruns its second turn alone from the messages the thread held, as the same', async () => {
    const events = await recordThread();
    expect(validateTrace(events).problems).toEqual([]);
    const runs = recordedRuns(events);
    expect(runs).toHaveLength(2);
    for (const runId of runs) {
      const report = await rerunLanggraphTrace(
        events,
        ({ input, history, model, tools, callbacks }) =>
          forecaster(model('forecaster'), tools([weather])).invoke(
            { messages: [...history, { role: 'user', content: input }] },
            { callbacks },
          ),
        { runId },
      );
      expect(report.same, report.differences.map(formatDivergence).join('\n')).toBe(true);
    }
  });

  it('gives the first turn no history, and a changed tool still shows in the second', async () => {
    const events = await recordThread();
    const [first, second] = recordedRuns(events);
    let given: readonly unknown[] = ['unset'];
    await rerunLanggraphTrace(
      events,
      ({ input, history, model, tools, callbacks }) => {
        given = history;
        return forecaster(model('forecaster'), tools([weather])).invoke(
          { messages: [...history, { role: 'user', content: input }] },
          { callbacks },
        );
      },
      { runId: first },
    );
    expect(given).toEqual([]);
    const renamed = tool(({ city }: { city: string }) => `${city}: -3 °C`, {
      name: 'weather',
      description: 'The weather in a city, in Celsius',
      schema: z.object({ city: z.string() }),
    });
    const report = await rerunLanggraphTrace(
      events,
      ({ input, history, model, tools, callbacks }) =>
        forecaster(model('forecaster'), tools([renamed])).invoke(
          { messages: [...history, { role: 'user', content: input }] },
          { callbacks },
        ),
      { runId: second },
    );
    expect(report.firstDivergence?.explanation?.map(change => change.summary).join('\n')).toMatch(
      /tool 'weather' description/,
    );
  });
});
