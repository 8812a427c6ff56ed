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
