import {
  agentTraceProcessor,
  withAgentTrace,
  openaiAgentsModel,
  rerunOpenaiAgentsTrace,
} from '@agent-trace/openai-agents';
import { sequentialIds, steppingClock, type TraceEvent } from '@agent-trace/core';
import { compareGoldenTrace, fakeLLM } from '@agent-trace/testing';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { formatDivergence, jsonlSink, memorySink, validateTrace } from '@agent-trace/trace';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../support/cli.js';
import {
  Agent,
  OpenAIResponsesModel,
  run,
  addTraceProcessor,
  setTracingDisabled,
  tool,
} from '@openai/agents';
import { setupServer } from 'msw/node';
import OpenAI from 'openai';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { desk, recordDesk, type Change } from '../fixtures/agents/openai-agents-desk.js';
import { eventLines, eventOf } from '../support/event-lines.js';

const weather = tool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: city === 'Oslo' ? -3 : 18 }),
});

const golden = fileURLToPath(new URL('../../golden', import.meta.url));

async function recorded(): Promise<TraceEvent[]> {
  const sink = memorySink();
  expect(await recordDesk(sink)).toBe('Cold: -3 °C in Oslo.');
  return sink.events;
}

describe('Agents SDK agents recorded through agentTraceProcessor', () => {
  it('a handoff and an agent used as a tool become one valid run, nested as agent-trace nests them', async () => {
    const events = await recorded();
    expect(validateTrace(events).problems).toEqual([]);
    expect(eventLines(events)).toEqual([
      'run_start triage',
      'agent_start triage',
      'llm_start triage',
      'llm_end triage',
      'handoff_start triage',
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
      'handoff_end triage',
      'agent_end triage',
      'run_end triage',
    ]);
    expect(eventOf(events, 'run_start', 'triage')).toMatchObject({ input: 'Is Oslo cold?' });
    expect(eventOf(events, 'agent_start', 'forecaster')).toMatchObject({
      instructions: 'Ask the researcher.',
      tools: ['ask_researcher'],
      path: ['triage', 'forecaster'],
      tool_definitions: [{ name: 'ask_researcher', description: 'Ask the researcher' }],
    });
    expect(eventOf(events, 'handoff_start', 'triage')).toMatchObject({
      from: 'triage',
      to: 'forecaster',
      mode: 'pass_control',
    });
    expect(eventOf(events, 'handoff_start', 'forecaster')).toMatchObject({
      to: 'researcher',
      mode: 'return_to_caller',
    });
    expect(eventOf(events, 'tool_end', 'researcher')).toMatchObject({
      tool: 'weather',
      args: { city: 'Oslo' },
      result: { city: 'Oslo', celsius: -3 },
    });
    expect(eventOf(events, 'agent_end', 'triage')).toMatchObject({
      stop_reason: 'completed',
      handed_off_to: 'forecaster',
      output: 'Cold: -3 °C in Oslo.',
    });
    expect(eventOf(events, 'run_end', 'triage')).toMatchObject({
      stop_reason: 'completed',
      counts: { agents: 3, llm_calls: 5, tool_calls: 2 },
    });
  });

  it('withAgentTrace records only the runs its work starts, with several at once', async () => {
    const agent = (name: string) =>
      new Agent({
        name,
        model: openaiAgentsModel(fakeLLM([{ text: `${name} done` }]), { agent: name }),
      });
    const [first, second] = [memorySink(), memorySink()];
    await Promise.all([
      withAgentTrace({ trace: first }, () => run(agent('first'), 'go')),
      withAgentTrace({ trace: second }, () => run(agent('second'), 'go')),
      run(agent('unrecorded'), 'go'),
    ]);
    expect(new Set(first.events.map(event => event.agent))).toEqual(new Set(['first']));
    expect(new Set(second.events.map(event => event.agent))).toEqual(new Set(['second']));
    expect(validateTrace([...first.events]).problems).toEqual([]);
  });

  it('matches its golden trace', async () => {
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('openai-agents-desk', await recorded(), { directory: golden }),
    );
  });

  it("maps the SDK's stops: max turns is max_steps, a failing tool is a tool error", async () => {
    const sink = memorySink();
    const weather = tool({
      name: 'weather',
      description: 'The weather in a city',
      parameters: z.object({ city: z.string() }),
      execute: () => {
        throw new Error('no station in Atlantis');
      },
    });
    const looping = new Agent({
      name: 'looper',
      tools: [weather],
      model: openaiAgentsModel(
        fakeLLM(
          Array.from({ length: 2 }, () => ({
            toolCalls: [{ name: 'weather', args: { city: 'Atlantis' } }],
          })),
        ),
      ),
    });
    await expect(
      withAgentTrace({ trace: sink, clock: steppingClock(), ids: sequentialIds() }, () =>
        run(looping, 'Atlantis?', { maxTurns: 2 }),
      ),
    ).rejects.toThrow('Max turns (2) exceeded');
    const { events } = sink;
    expect(validateTrace(events).problems).toEqual([]);
    const toolEnd = events.find(event => event.event === 'tool_end') as Record<string, unknown>;
    // The SDK keeps a failing tool's error on its span, its details redacted: that is what is recorded.
    expect(toolEnd).toMatchObject({ tool: 'weather', error: { type: 'error' } });
    expect(events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'max_steps' });
    expect((events.at(-1) as { error?: { message: string } }).error?.message).toMatch(
      /Max turns \(2\) exceeded/,
    );
  });
});

describe("the SDK's own OpenAI model, recorded", () => {
  it('records model, messages, tools, usage and finish reason from its response spans, over the Responses wire', async () => {
    const server = setupServer(
      ...openaiHandlers([
        {
          toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }],
          usage: { promptTokens: 41, completionTokens: 7, cacheReadTokens: 16 },
        },
        { text: 'Oslo is at -3 °C.', usage: { promptTokens: 60, completionTokens: 8 } },
      ]),
    );
    server.listen({ onUnhandledRequest: 'error' });
    try {
      setTracingDisabled(false);
      const sink = memorySink();
      const processor = agentTraceProcessor({
        trace: sink,
        clock: steppingClock(),
        ids: sequentialIds(),
      });
      addTraceProcessor(processor); // for the process: every run from here on is recorded
      const client = new OpenAI({ apiKey: 'sk-test', baseURL: 'http://llm.test/v1' });
      const forecaster = new Agent({
        name: 'forecaster',
        instructions: 'Use the weather tool.',
        tools: [weather],
        model: new OpenAIResponsesModel(client, 'gpt-4o-mini'),
      });
      const result = await run(forecaster, 'How cold is Oslo?');
      await processor.flush();
      expect(result.finalOutput).toBe('Oslo is at -3 °C.');
      const { events } = sink;
      expect(validateTrace(events).problems).toEqual([]);
      expect(events.find(event => event.event === 'agent_start')).toMatchObject({
        model: 'gpt-4o-mini',
        provider: 'openai',
        instructions: 'Use the weather tool.',
        tools: ['weather'],
      });
      expect(events.filter(event => event.event === 'llm_end')).toMatchObject([
        {
          finish_reason: 'tool_calls',
          tok_prompt: 41,
          tok_cache_read: 16,
          tool_calls: [{ tool: 'weather', arguments: '{"city":"Oslo"}' }],
        },
        { finish_reason: 'stop', text: 'Oslo is at -3 °C.', tok_prompt: 60 },
      ]);
      expect(events.filter(event => event.event === 'llm_start')[1]).toMatchObject({
        messages: [
          { role: 'assistant', tool_calls: [{ tool: 'weather' }] },
          { role: 'tool', content: '{"city":"Oslo","celsius":-3}' },
        ],
        message_count: 3,
      });
      expect(events.at(-1)).toMatchObject({ event: 'run_end', output: 'Oslo is at -3 °C.' });
    } finally {
      server.close();
    }
  });
});

describe('rerunOpenaiAgentsTrace', () => {
  it("reruns today's unchanged agents against their recording as the same", async () => {
    const report = await rerunOpenaiAgentsTrace(await recorded(), rerun =>
      run(desk(rerun), rerun.input),
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
    const report = await rerunOpenaiAgentsTrace(await recorded(), rerun =>
      run(desk(rerun, change), rerun.input),
    );
    expect(report.same).toBe(false);
    expect(report.firstDivergence?.agent).toBe(agent);
    expect(formatDivergence(report.firstDivergence!)).toMatch(says);
  });
});

describe('agent-trace on Agents SDK agents', () => {
  async function file(): Promise<string> {
    const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-openai-agents-')), 'desk.jsonl');
    const sink = jsonlSink(path);
    await recordDesk(sink);
    await sink.close();
    return path;
  }

  it('replays, validates, diffs and views a recorded run', async () => {
    const path = await file();
    expect((await cli(['validate', path])).code).toBe(0);
    const replay = await cli(['replay', path]);
    expect(replay.stdout).toContain('handoff triage → forecaster');
    expect(replay.stdout).toContain('agent researcher  fake/fake-model  2 steps  completed');
    expect((await cli(['diff', path, await file()])).code).toBe(0);
    const stats = await cli(['stats', path]);
    expect(stats.stdout).toMatch(/researcher/);
    const page = join(mkdtempSync(join(tmpdir(), 'agent-trace-openai-agents-page-')), 'desk.html');
    expect((await cli(['view', path, '--out', page, '--no-open'])).code).toBe(0);
  });

  it('rerun --agent takes a module exporting openaiAgentsAgent(...): the same code is the same, a change is named', async () => {
    const path = await file();
    const same = await cli([
      'rerun',
      path,
      '--agent',
      'test/fixtures/agents/openai-agents-desk.ts',
    ]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('same behaviour: no divergence');
    const changed = await cli([
      'rerun',
      path,
      '--agent',
      'test/fixtures/agents/openai-agents-desk-changed.ts',
    ]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain("agent 'forecaster'");
    expect(changed.stdout).toContain('the instructions');
  });
});
