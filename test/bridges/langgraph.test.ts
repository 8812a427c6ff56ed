import { agentTraceCallbacks, langchainModel, rerunLanggraphTrace } from '@agent-trace/langgraph';
import { sequentialIds, steppingClock, type TraceEvent } from '@agent-trace/core';
import { compareGoldenTrace, fakeLLM } from '@agent-trace/testing';
import { formatDivergence, jsonlSink, memorySink, validateTrace } from '@agent-trace/trace';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  desk,
  forecaster,
  recordForecaster,
  type Change,
} from '../fixtures/agents/langgraph-desk.js';
import { cli } from '../support/cli.js';
import { eventLines, eventOf } from '../support/event-lines.js';

const golden = fileURLToPath(new URL('../../golden', import.meta.url));

async function recorded(): Promise<TraceEvent[]> {
  const sink = memorySink();
  expect(await recordForecaster(sink)).toBe('Cold: -3 °C in Oslo.');
  return sink.events;
}

/** The two-node desk, recorded on its scripts. */
async function recordedDesk(): Promise<TraceEvent[]> {
  const sink = memorySink();
  const callbacks = agentTraceCallbacks({
    trace: sink,
    clock: steppingClock(),
    ids: sequentialIds(),
  });
  const scripts = {
    researcher: fakeLLM([
      { text: 'Oslo: -3 °C.', usage: { promptTokens: 12, completionTokens: 4 } },
    ]),
    writer: fakeLLM([{ text: 'Cold: -3 °C.', usage: { promptTokens: 20, completionTokens: 5 } }]),
  };
  const state = await desk({
    model: name => langchainModel(scripts[name as keyof typeof scripts], { agent: name }),
    tools: tools => tools,
  }).invoke({ messages: [{ role: 'user', content: 'Is Oslo cold?' }] }, { callbacks: [callbacks] });
  await callbacks.flush();
  expect(state.messages.at(-1)?.content).toBe('Cold: -3 °C.');
  return sink.events;
}

describe('LangGraph graphs recorded through agentTraceCallbacks', () => {
  it('the prebuilt ReAct agent, asking another through a tool, becomes one valid run', async () => {
    const events = await recorded();
    expect(validateTrace(events).problems).toEqual([]);
    expect(eventLines(events)).toEqual([
      'run_start forecaster',
      'agent_start forecaster',
      'llm_start forecaster',
      'llm_end forecaster',
      'tool_start forecaster',
      'handoff_start forecaster',
      'agent_start researcher',
      'llm_start researcher',
      'llm_end researcher',
      'tool_start researcher',
      'tool_end researcher',
      'llm_start researcher',
      'llm_end researcher',
      'agent_end researcher',
      'handoff_end forecaster',
      'tool_end forecaster',
      'llm_start forecaster',
      'llm_end forecaster',
      'agent_end forecaster',
      'run_end forecaster',
    ]);
    expect(eventOf(events, 'agent_start', 'researcher')).toMatchObject({
      instructions: 'Look the weather up.',
      tools: ['weather'],
      tool_definitions: [{ name: 'weather', description: 'The weather in a city' }],
    });
    expect(eventOf(events, 'tool_end', 'researcher')).toMatchObject({
      args: { city: 'Oslo' },
      result: { city: 'Oslo', celsius: -3 },
    });
    expect(events.at(-1)).toMatchObject({
      stop_reason: 'completed',
      output: 'Cold: -3 °C in Oslo.',
      counts: { agents: 2, llm_calls: 4, tool_calls: 2 },
    });
  });

  it('a two-node graph: each node that calls a model is an agent, side by side in the run', async () => {
    const events = await recordedDesk();
    expect(validateTrace(events).problems).toEqual([]);
    expect(eventLines(events)).toEqual([
      'run_start desk',
      'agent_start researcher',
      'llm_start researcher',
      'llm_end researcher',
      'agent_start writer',
      'llm_start writer',
      'llm_end writer',
      'agent_end writer',
      'agent_end researcher',
      'run_end desk',
    ]);
    const writerCall = events.find(
      event => event.event === 'llm_start' && event.agent === 'writer',
    ) as Record<string, unknown>;
    expect(writerCall.messages).toEqual([
      { role: 'user', content: 'Is Oslo cold?' },
      { role: 'assistant', content: 'Oslo: -3 °C.', tool_calls: [] },
    ]);
    expect(events.at(-1)).toMatchObject({ output: 'Cold: -3 °C.', tok_prompt: 32 });
  });

  it('match their golden traces', async () => {
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('langgraph-react', await recorded(), { directory: golden }),
    );
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('langgraph-two-nodes', await recordedDesk(), { directory: golden }),
    );
  });

  it("maps LangGraph's stops: the recursion limit is max_steps, a failing tool a tool error", async () => {
    const sink = memorySink();
    const callbacks = agentTraceCallbacks({
      trace: sink,
      clock: steppingClock(),
      ids: sequentialIds(),
    });
    const weather = tool(
      (): string => {
        throw new Error('no station in Atlantis');
      },
      { name: 'weather', description: 'The weather', schema: z.object({ city: z.string() }) },
    );
    const looping = createReactAgent({
      llm: langchainModel(
        fakeLLM(
          Array.from({ length: 2 }, () => ({
            toolCalls: [{ name: 'weather', args: { city: 'Atlantis' } }],
          })),
        ),
      ),
      tools: [weather],
      name: 'looper',
    });
    await expect(
      looping.invoke(
        { messages: [{ role: 'user', content: 'Atlantis?' }] },
        { callbacks: [callbacks], recursionLimit: 4 },
      ),
    ).rejects.toThrow(/Recursion limit/);
    await callbacks.flush();
    const { events } = sink;
    expect(validateTrace(events).problems).toEqual([]);
    expect(events.find(event => event.event === 'tool_end')).toMatchObject({
      error: { message: expect.stringMatching(/no station in Atlantis/) },
    });
    expect(events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'max_steps' });
  });
});

describe('rerunLanggraphTrace', () => {
  it("reruns today's unchanged graph against its recording as the same", async () => {
    const report = await rerunLanggraphTrace(await recorded(), ({ input, callbacks, ...rerun }) =>
      forecaster(rerun).invoke({ messages: [{ role: 'user', content: input }] }, { callbacks }),
    );
    expect(report.firstDivergence).toBeUndefined();
    expect(report.same).toBe(true);
  });

  it.each<[Change, string, RegExp]>([
    [
      'instructions',
      'forecaster',
      /changed: {2}the instructions: \[-Ask-\]\{\+Answer in one word; ask\+\}/,
    ],
    [
      'tool description',
      'researcher',
      /changed: {2}tool 'weather' description: The weather in a city\{\+, in Fahrenheit\+\}/,
    ],
    ['removed tool', 'researcher', /changed: {2}the tool list: 'weather' removed/],
  ])('catches a planted change (%s) at the agent it changed', async (change, agent, says) => {
    const report = await rerunLanggraphTrace(await recorded(), ({ input, callbacks, ...rerun }) =>
      forecaster(rerun, change).invoke(
        { messages: [{ role: 'user', content: input }] },
        { callbacks },
      ),
    );
    expect(report.same).toBe(false);
    expect(report.firstDivergence?.agent).toBe(agent);
    expect(formatDivergence(report.firstDivergence!)).toMatch(says);
  });
});

describe('agent-trace on LangGraph graphs', () => {
  async function file(): Promise<string> {
    const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-langgraph-')), 'forecast.jsonl');
    const sink = jsonlSink(path);
    await recordForecaster(sink);
    await sink.close();
    return path;
  }

  it('replays, validates, diffs and views a recorded run', async () => {
    const path = await file();
    expect((await cli(['validate', path])).code).toBe(0);
    const replay = await cli(['replay', path]);
    expect(replay.stdout).toContain('agent researcher  fake/fake-model  2 steps  completed');
    expect((await cli(['diff', path, await file()])).code).toBe(0);
    expect((await cli(['stats', path])).stdout).toMatch(/forecaster/);
    const page = join(mkdtempSync(join(tmpdir(), 'agent-trace-langgraph-page-')), 'forecast.html');
    expect((await cli(['view', path, '--out', page, '--no-open'])).code).toBe(0);
  });

  it('rerun --agent takes a module exporting langgraphAgent(...): the same code is the same, a change is named', async () => {
    const path = await file();
    const same = await cli(['rerun', path, '--agent', 'test/fixtures/agents/langgraph-desk.ts']);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('same behaviour: no divergence');
    const changed = await cli([
      'rerun',
      path,
      '--agent',
      'test/fixtures/agents/langgraph-desk-changed.ts',
    ]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain("agent 'forecaster'");
    expect(changed.stdout).toContain('the instructions');
  });
});

describe('a FakeLLM script as a LangChain chat model', () => {
  it('runs the prebuilt ReAct agent through its tools, offline, with the script seeing what LangChain sends', async () => {
    const script = fakeLLM([
      { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
      { text: 'Oslo is at -3 °C.' },
    ]);
    const weather = tool(({ city }: { city: string }) => `${city}: -3 °C`, {
      name: 'weather',
      description: 'The weather in a city',
      schema: z.object({ city: z.string() }),
    });
    const agent = createReactAgent({
      llm: langchainModel(script, { agent: 'forecaster' }),
      tools: [weather],
      prompt: 'Use the weather tool.',
    });
    const state = await agent.invoke({
      messages: [{ role: 'user', content: 'How cold is Oslo?' }],
    });
    expect(state.messages.at(-1)?.content).toBe('Oslo is at -3 °C.');
    const second = script.calls[1]!;
    expect(second.agentName).toBe('forecaster');
    expect(second.instructions).toBe('Use the weather tool.');
    expect(second.toolNames).toEqual(['weather']);
    expect(second.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { callId: expect.any(String), toolName: 'weather', argumentsText: '{"city":"Oslo"}' },
        ],
      },
      {
        role: 'tool',
        callId: expect.any(String),
        toolName: 'weather',
        content: 'Oslo: -3 °C',
        isError: false,
      },
    ]);
  });

  it('fails a call past the end of the script, saying so', async () => {
    const agent = createReactAgent({ llm: langchainModel(fakeLLM([])), tools: [] });
    await expect(agent.invoke({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(
      /FakeLLM/,
    );
  });
});
