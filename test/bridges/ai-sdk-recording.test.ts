import { agentTraceTelemetry, aiSdkModel } from '@agent-trace/ai-sdk';
import { sequentialIds, steppingClock, type TraceEvent } from '@agent-trace/core';
import { compareGoldenTrace, fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink, validateTrace, validateTraceFile } from '@agent-trace/trace';
import { generateText, isStepCount, streamText, tool } from 'ai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '../support/cli.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => {
    if (city === 'Atlantis') throw new Error('no station in Atlantis');
    return Promise.resolve({ city, celsius: city === 'Oslo' ? -3 : 18 });
  },
});

/** A recorder into memory with reproducible ids and times. */
function recorder() {
  const trace = memorySink();
  const telemetry = agentTraceTelemetry({
    trace,
    clock: steppingClock(),
    ids: sequentialIds(),
    prices: {
      'fake:fake-model': {
        inputPerMillion: 1,
        outputPerMillion: 2,
        source: 'test',
        asOf: '2026-11-25',
      },
    },
  });
  return { trace, telemetry };
}

const golden = fileURLToPath(new URL('../../golden', import.meta.url));

const shape = (events: readonly TraceEvent[]) =>
  events.map(event => `${event.seq} ${event.event} ${event.agent}`);

describe('an AI SDK agent recorded through agentTraceTelemetry', () => {
  it('becomes a valid trace: the run, the agent, a model call per step, a tool call per execution', async () => {
    const { trace, telemetry } = recorder();
    const result = await generateText({
      model: aiSdkModel(
        fakeLLM([
          {
            toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }],
            usage: { promptTokens: 40, completionTokens: 8 },
          },
          {
            toolCalls: [{ name: 'weather', args: { city: 'Atlantis' } }],
            usage: { promptTokens: 60, completionTokens: 9 },
          },
          {
            text: 'Oslo is at -3 °C; Atlantis has no station.',
            usage: { promptTokens: 80, completionTokens: 12 },
          },
        ]),
      ),
      system: 'Use the weather tool.',
      tools: { weather },
      stopWhen: isStepCount(5),
      prompt: 'Oslo and Atlantis?',
      telemetry: { functionId: 'forecaster', integrations: [telemetry] },
    });
    await telemetry.flush();
    expect(result.text).toBe('Oslo is at -3 °C; Atlantis has no station.');
    const { events } = trace;
    expect(validateTrace(events).problems).toEqual([]);
    expect(shape(events)).toEqual([
      '0 run_start forecaster',
      '1 agent_start forecaster',
      '2 llm_start forecaster',
      '3 llm_end forecaster',
      '4 tool_start forecaster',
      '5 tool_end forecaster',
      '6 llm_start forecaster',
      '7 llm_end forecaster',
      '8 tool_start forecaster',
      '9 tool_end forecaster',
      '10 llm_start forecaster',
      '11 llm_end forecaster',
      '12 agent_end forecaster',
      '13 run_end forecaster',
    ]);
    expect(events[1]).toMatchObject({
      model: 'fake-model',
      provider: 'fake',
      instructions: 'Use the weather tool.',
      tools: ['weather'],
      tool_definitions: [{ name: 'weather', description: 'The weather in a city' }],
    });
    expect(events[0]).toMatchObject({ input: 'Oslo and Atlantis?' });
    expect(events[2]).toMatchObject({
      step: 1,
      messages: [{ role: 'user', content: 'Oslo and Atlantis?' }],
      message_count: 1,
    });
    expect(events[3]).toMatchObject({
      tool_calls: [{ tool: 'weather', arguments: '{"city":"Oslo"}' }],
      finish_reason: 'tool_calls',
      tok_prompt: 40,
      tok_completion: 8,
      cost_usd: 0.000056,
    });
    expect(events[5]).toMatchObject({
      tool: 'weather',
      args: { city: 'Oslo' },
      result: { city: 'Oslo', celsius: -3 },
    });
    expect(events[9]).toMatchObject({
      tool: 'weather',
      error: { message: 'no station in Atlantis' },
    });
    // The second call sends what is new since the first: the answer and the tool's result.
    expect(events[6]).toMatchObject({ step: 2, message_count: 3 });
    expect((events[6] as { messages: unknown[] }).messages).toMatchObject([
      { role: 'assistant', tool_calls: [{ tool: 'weather' }] },
      { role: 'tool', tool: 'weather', content: '{"city":"Oslo","celsius":-3}', is_error: false },
    ]);
    expect(events.at(-2)).toMatchObject({
      stop_reason: 'completed',
      steps: 3,
      tool_calls: 2,
      tok_prompt: 180,
      tok_completion: 29,
    });
    expect(events.at(-1)).toMatchObject({
      stop_reason: 'completed',
      output: 'Oslo is at -3 °C; Atlantis has no station.',
      counts: { events: 14, agents: 1, llm_calls: 3, tool_calls: 2, tool_errors: 1 },
    });
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('ai-sdk-tools', events, { directory: golden }),
    );
  });

  it('records an agent called from a tool as a sub-agent under that tool, in the same run', async () => {
    const { trace, telemetry } = recorder();
    const integrations = [telemetry];
    const researcher = tool({
      description: 'Asks the research agent',
      inputSchema: z.object({ question: z.string() }),
      execute: async ({ question }) => {
        const { text } = await generateText({
          model: aiSdkModel(fakeLLM([{ text: 'Tracing pairs every start with an end.' }])),
          prompt: question,
          telemetry: { functionId: 'researcher', integrations },
        });
        return text;
      },
    });
    await generateText({
      model: aiSdkModel(
        fakeLLM([
          { toolCalls: [{ name: 'research', args: { question: 'What is tracing?' } }] },
          { text: 'Tracing pairs starts with ends.' },
        ]),
      ),
      tools: { research: researcher },
      stopWhen: isStepCount(3),
      prompt: 'Explain tracing.',
      telemetry: { functionId: 'writer', integrations },
    });
    await telemetry.flush();
    const { events } = trace;
    expect(validateTrace(events).problems).toEqual([]);
    expect(shape(events)).toEqual([
      '0 run_start writer',
      '1 agent_start writer',
      '2 llm_start writer',
      '3 llm_end writer',
      '4 tool_start writer',
      '5 agent_start researcher',
      '6 llm_start researcher',
      '7 llm_end researcher',
      '8 agent_end researcher',
      '9 tool_end writer',
      '10 llm_start writer',
      '11 llm_end writer',
      '12 agent_end writer',
      '13 run_end writer',
    ]);
    expect(events[5]?.parent_span_id).toBe(events[4]?.span_id);
    // The run's seal counts every agent's tokens.
    const tokens = (name: string) =>
      events
        .filter(event => event.event === 'llm_end' && event.agent === name)
        .reduce((sum, event) => sum + (event as { tok_prompt: number }).tok_prompt, 0);
    expect(events.at(-1)).toMatchObject({ tok_prompt: tokens('writer') + tokens('researcher') });
    expect(tokens('researcher')).toBeGreaterThan(0);
    expect(new Set(events.map(event => event.run)).size).toBe(1);
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('ai-sdk-sub-agent', events, { directory: golden }),
    );
  });

  it('keeps two runs apart when they run at once, each sub-agent under its own tool', async () => {
    const { trace, telemetry } = recorder();
    const integrations = [telemetry];
    const research = tool({
      description: 'Asks the research agent',
      inputSchema: z.object({ question: z.string() }),
      execute: async ({ question }) => {
        const { text } = await generateText({
          model: aiSdkModel(fakeLLM([{ text: `About ${question}.` }])),
          prompt: question,
          telemetry: { functionId: `researcher of ${question}`, integrations },
        });
        return text;
      },
    });
    const writer = (topic: string) =>
      generateText({
        model: aiSdkModel(
          fakeLLM([
            { toolCalls: [{ name: 'research', args: { question: topic } }] },
            { text: `Done: ${topic}.` },
          ]),
        ),
        tools: { research },
        stopWhen: isStepCount(3),
        prompt: topic,
        telemetry: { functionId: `writer of ${topic}`, integrations },
      });
    await Promise.all([writer('spans'), writer('seals')]);
    await telemetry.flush();
    expect(validateTrace(trace.events).problems).toEqual([]);
    for (const topic of ['spans', 'seals']) {
      const sub = trace.events.find(
        event => event.event === 'agent_start' && event.agent === `researcher of ${topic}`,
      );
      const tool = trace.events.find(
        event => event.event === 'tool_start' && event.span_id === sub?.parent_span_id,
      );
      expect(tool?.agent).toBe(`writer of ${topic}`);
      expect(sub?.run).toBe(tool?.run);
    }
    expect(new Set(trace.events.map(event => event.run)).size).toBe(2);
  });

  it('records streamText the same way, and the JSONL file replays, shows stats and validates', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-ai-sdk-')), 'stream.jsonl');
    const telemetry = agentTraceTelemetry({ trace: jsonlSink(file) });
    const result = streamText({
      model: aiSdkModel(
        fakeLLM([
          { toolCalls: [{ name: 'weather', args: { city: 'Rome' } }] },
          { text: 'Rome is at 18 °C.' },
        ]),
      ),
      tools: { weather },
      stopWhen: isStepCount(3),
      prompt: 'Rome?',
      telemetry: { functionId: 'streamer', integrations: [telemetry] },
    });
    expect(await result.text).toBe('Rome is at 18 °C.');
    await telemetry.flush();
    expect((await validateTraceFile(file)).valid).toBe(true);
    const replay = await cli(['replay', file]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain('agent streamer  fake/fake-model  2 steps  completed');
    expect(replay.stdout).toContain('tool weather');
    const stats = await cli(['stats', file, '--json']);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      runs: [{ agents: { streamer: { calls: 1, errors: 0 } } }],
    });
  });

  it('leaves no secret shape in the trace: a key in the prompt is replaced wherever it goes', async () => {
    const { trace, telemetry } = recorder();
    const key = 'sk-proj-' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6';
    await generateText({
      model: aiSdkModel(fakeLLM([{ text: 'I will not repeat keys.' }])),
      prompt: `My key is ${key}, keep it safe.`,
      telemetry: { integrations: [telemetry] },
    });
    await telemetry.flush();
    expect(validateTrace(trace.events).problems).toEqual([]);
    expect(JSON.stringify(trace.events)).not.toContain(key);
    expect(trace.events.at(-1)).toMatchObject({ redactions: 2 });
  });

  it('seals an aborted run: the running tool and the agent end, the run says aborted', async () => {
    const { trace, telemetry } = recorder();
    const controller = new AbortController();
    const slow = tool({
      description: 'Waits until the run is aborted',
      inputSchema: z.object({}),
      execute: (_input, { abortSignal }) =>
        new Promise((_, reject) => {
          abortSignal?.addEventListener('abort', () => reject(new Error('aborted')));
          controller.abort();
        }),
    });
    await expect(
      generateText({
        model: aiSdkModel(
          fakeLLM([{ toolCalls: [{ name: 'slow', args: {} }] }], { allowUnusedSteps: true }),
        ),
        tools: { slow },
        stopWhen: isStepCount(3),
        prompt: 'Wait.',
        abortSignal: controller.signal,
        telemetry: { integrations: [telemetry] },
      }),
    ).rejects.toThrow();
    await telemetry.flush();
    const { events } = trace;
    expect(validateTrace(events).problems).toEqual([]);
    expect(events.at(-1)).toMatchObject({ event: 'run_end' });
    expect(events.at(-1)).toMatchObject({ stop_reason: 'aborted', error: { type: 'AbortError' } });
    expect(events.filter(event => event.event === 'tool_end')).toHaveLength(1);
  });

  it('says the step limit stopped the run when the model still wanted tools', async () => {
    const { trace, telemetry } = recorder();
    await generateText({
      model: aiSdkModel(fakeLLM([{ toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }])),
      tools: { weather },
      stopWhen: isStepCount(1),
      prompt: 'Oslo?',
      telemetry: { integrations: [telemetry] },
    });
    await telemetry.flush();
    expect(validateTrace(trace.events).problems).toEqual([]);
    expect(trace.events.at(-1)).toMatchObject({
      event: 'run_end',
      agent: 'ai-sdk',
      stop_reason: 'max_steps',
    });
  });

  it('seals a run whose model call failed: the call, the agent and the run end with the error', async () => {
    const { trace, telemetry } = recorder();
    await expect(
      generateText({
        model: aiSdkModel(fakeLLM([{ throw: new Error('connection reset') }])),
        prompt: 'Oslo?',
        maxRetries: 0,
        telemetry: { integrations: [telemetry] },
      }),
    ).rejects.toThrow('connection reset');
    await telemetry.flush();
    const { events } = trace;
    expect(validateTrace(events).problems).toEqual([]);
    expect(events.map(event => event.event)).toEqual([
      'run_start',
      'agent_start',
      'llm_start',
      'llm_end',
      'agent_end',
      'run_end',
    ]);
    expect(events[3]).toMatchObject({ error: { message: 'connection reset' } });
    expect(events.at(-1)).toMatchObject({
      stop_reason: 'error',
      error: { message: 'connection reset' },
    });
  });
});
