/**
 * Responses recorded from the real OpenAI and Anthropic APIs (test/fixtures/real-wire/, each with
 * its source), served by a server on 127.0.0.1 as the provider sent them, split at odd offsets,
 * through the native adapters. Each is checked against what the response says (text, tool calls,
 * refusals, usage, finish, error kind and retry), the trace validated, and rerun with the server
 * stopped: the same.
 */
import { agent, run, stream, tool, type LanguageModel, type TraceEvent } from '@agent-trace/core';
import { anthropic } from '@agent-trace/core/anthropic';
import { openai } from '@agent-trace/core/openai';
import { memorySink, rerunTrace, validateTrace } from '@agent-trace/trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WireServer } from '../support/real-wire/wire-server.js';

const wire = new WireServer();
let url = '';
beforeAll(async () => {
  url = await wire.start();
});
afterAll(() => wire.stop());

const claude = () => anthropic('claude-sonnet-4-6', { apiKey: 'test-key', baseURL: url });
const responses = () =>
  openai.responses('gpt-5-nano', { apiKey: 'test-key', baseURL: `${url}/v1` });

const updateIssueList = tool({
  name: 'updateIssueList',
  description: 'Updates the issue list',
  input: z.object({}),
  execute: () => 'updated',
});

const desk = (model: LanguageModel) =>
  agent({
    name: 'desk',
    instructions: 'Help.',
    model,
    tools: [updateIssueList],
    retry: { modelAttempts: 3, baseDelayMs: 1 },
  });

/** Runs the desk on `model` (streamed or not), then checks the trace and reruns it offline. */
async function recordedRun(model: () => LanguageModel, streamed: boolean) {
  const trace = memorySink();
  const result = streamed
    ? await (async () => {
        const running = stream(desk(model()), 'Go', { trace });
        for await (const chunk of running) void chunk;
        return running.result;
      })()
    : await run(desk(model()), 'Go', { trace });
  const events: readonly TraceEvent[] = trace.events;
  expect(validateTrace(events).problems).toEqual([]);
  // The server answers nothing more: the rerun reads every answer from the recording.
  wire.answer();
  const rerun = await rerunTrace(events, desk(model()));
  expect(rerun.differences).toEqual([]);
  expect(wire.requests).toBe(0);
  const answers = events.filter(event => event.event === 'llm_end');
  return { result, answers };
}

describe('real Anthropic responses through the native adapter', () => {
  for (const streamed of [true, false])
    it(`a refusal ${streamed ? 'streamed' : 'as JSON'}: withheld output, its tokens counted`, async () => {
      wire.answer(
        streamed
          ? { file: 'anthropic-refusal.chunks.txt', as: 'anthropic-sse' }
          : { file: 'anthropic-refusal.json', as: 'json' },
      );
      const { result, answers } = await recordedRun(claude, streamed);
      expect(answers[0]).toMatchObject({
        finish_reason: 'content_filter',
        tok_prompt: 18,
        tok_completion: 5,
      });
      expect(result.output).toBe('');
    });

  it('streamed usage is the final count of message_delta, not message_start’s early one', async () => {
    wire.answer({ file: 'anthropic-message-delta-input-tokens.chunks.txt', as: 'anthropic-sse' });
    const { result, answers } = await recordedRun(claude, true);
    expect(result.output).toBe('pong');
    expect(answers[0]).toMatchObject({
      finish_reason: 'stop',
      tok_prompt: 61,
      tok_completion: 2,
    });
  });

  it('a streamed tool call with no arguments after text, then the answer', async () => {
    wire.answer(
      { file: 'anthropic-tool-no-args.chunks.txt', as: 'anthropic-sse' },
      { file: 'anthropic-message-delta-input-tokens.chunks.txt', as: 'anthropic-sse' },
    );
    const { result, answers } = await recordedRun(claude, true);
    expect(answers[0]).toMatchObject({
      text: "I'll update the issue list for you.",
      finish_reason: 'tool_calls',
      tool_calls: [{ call_id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', tool: 'updateIssueList' }],
      tok_prompt: 565,
      tok_completion: 48,
    });
    expect(result.toolCalls).toMatchObject([{ toolName: 'updateIssueList', result: 'updated' }]);
    expect(result.output).toBe('pong');
  });
});

describe('real reasoning: kept on llm_end, sent back as the provider requires', () => {
  it('Anthropic thinking is kept, and goes back signed before the answer in the next request', async () => {
    wire.answer(
      { file: 'anthropic-clear-thinking.1.json', as: 'json' },
      { file: 'anthropic-text.json', as: 'json' },
    );
    const trace = memorySink();
    const first = await run(desk(claude()), 'What is 925 / 5?', { trace });
    const [answer] = trace.events.filter(event => event.event === 'llm_end');
    expect(answer).toMatchObject({
      text: '925 ÷ 5 = 185',
      reasoning: [{ text: '925 divided by 5 = 185', provider: 'anthropic' }],
    });
    expect(first.output).toBe('925 ÷ 5 = 185');
    await run(desk(claude()), 'And again?', { history: first.messages });
    const sent = wire.bodies[1] as { messages: { role: string; content: unknown }[] };
    expect(sent.messages[1]).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'thinking',
          thinking: '925 divided by 5 = 185',
          signature: expect.stringMatching(/^Er4BCkYI/) as unknown,
        },
        { type: 'text', text: '925 ÷ 5 = 185' },
      ],
    });
  });

  it('OpenAI reasoning items, streamed over four calls, go back encrypted before their tool call', async () => {
    const file = 'openai-responses-openai-reasoning-encrypted-content.1.chunks.txt';
    wire.answer(...[0, 1, 2, 3].map(answer => ({ file, as: 'openai-sse' as const, answer })));
    const calculator = tool({
      name: 'calculator',
      description: 'Calculates',
      input: z.object({ a: z.number(), b: z.number(), op: z.string() }),
      execute: ({ a, b, op }) => (op === 'add' ? a + b : a * b),
    });
    const model = () =>
      openai.responses('gpt-5-mini', {
        apiKey: 'test-key',
        baseURL: `${url}/v1`,
        reasoning: { effort: 'high', summary: 'detailed' },
      });
    const make = () =>
      agent({ name: 'calc', instructions: 'Use the tool.', model: model(), tools: [calculator] });
    const trace = memorySink();
    const running = stream(make(), 'What is (12 + 7) * 3 * 10?', { trace });
    for await (const chunk of running) void chunk;
    const result = await running.result;
    expect(result.toolCalls.map(call => call.result)).toEqual([19, 57, 570]);
    const [firstRequest, secondRequest] = wire.bodies as {
      input: { type?: string; id?: string; encrypted_content?: string }[];
      include?: string[];
      reasoning?: unknown;
    }[];
    expect(firstRequest).toMatchObject({
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'high', summary: 'detailed' },
    });
    const [answer] = trace.events.filter(event => event.event === 'llm_end');
    const thought = answer?.event === 'llm_end' ? answer.reasoning?.[0] : undefined;
    expect(thought?.text).toMatch(/^\*\*Calculating step-by-step/);
    const sentBack = secondRequest?.input.filter(item => item.type === 'reasoning');
    expect(sentBack).toEqual([
      {
        type: 'reasoning',
        id: thought?.id,
        encrypted_content: thought?.opaque,
        summary: [{ type: 'summary_text', text: thought?.text }],
      },
    ]);
    const types = secondRequest?.input.map(item => item.type ?? 'message');
    expect(types?.indexOf('reasoning')).toBeLessThan(types?.indexOf('function_call') ?? -1);
    expect(validateTrace(trace.events).problems).toEqual([]);
    wire.answer();
    expect((await rerunTrace(trace.events, make())).differences).toEqual([]);
    expect(wire.requests).toBe(0);
  });
});

describe('real OpenAI responses through the native adapters', () => {
  it('a used-up quota inside a 200 stream is quota_exceeded, not retried', async () => {
    wire.answer(
      { file: 'openai-responses-insufficient-quota.chunks.txt', as: 'openai-sse' },
      { file: 'openai-responses-insufficient-quota.chunks.txt', as: 'openai-sse' },
    );
    const { result, answers } = await recordedRun(responses, true);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ error: { type: 'quota_exceeded' } });
    expect(result.stopReason).toBe('error');
  });
});
