import { agent, run, type LanguageModel } from '@agent-trace/core';
import { StreamAssembler } from '@agent-trace/core/record';
import { anthropic } from '@agent-trace/core/anthropic';
import { anthropicHandlers, sseResponse } from '@agent-trace/testing/msw';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  modelRequest as request,
  useMswServer,
  weatherTool as weather,
  wireFixture as fixture,
} from '../support/provider-wire.js';

const server = useMswServer();

const baseURL = 'http://llm.test';
const claude = () => anthropic('claude-sonnet-4-6', { apiKey: 'test-key', baseURL });

async function streamed(model: LanguageModel, input = request()) {
  const assembler = new StreamAssembler();
  for await (const part of model.stream(input)) assembler.add(part);
  return assembler.finish();
}

describe('anthropic() over the recorded wire fixtures', () => {
  it('reads the text fixture', async () => {
    server.use(
      http.post(`${baseURL}/v1/messages`, () => sseResponse(fixture('anthropic-text.sse'))),
    );
    expect(await streamed(claude())).toMatchObject({
      text: expect.stringMatching(/.+/) as string,
      toolCalls: [],
      finishReason: 'stop',
    });
  });

  it('reassembles tool_use input from input_json_delta fragments, skipping ping', async () => {
    server.use(
      http.post(`${baseURL}/v1/messages`, () => sseResponse(fixture('anthropic-tool-use.sse'))),
    );
    const response = await streamed(claude());
    expect(response).toMatchObject({
      text: 'Checking the weather.',
      toolCalls: [
        { callId: 'toolu_fx1', toolName: 'get_weather', argumentsText: '{"city": "Paris"}' },
      ],
      finishReason: 'tool_calls',
      usage: { promptTokens: 377, completionTokens: 65 },
    });
  });

  it('turns a mid-stream overloaded error into a retryable server error', async () => {
    server.use(
      http.post(`${baseURL}/v1/messages`, () =>
        sseResponse(fixture('anthropic-midstream-error.sse')),
      ),
    );
    await expect(streamed(claude())).rejects.toMatchObject({
      kind: 'server',
      isRetryable: true,
      message: expect.stringContaining('Overloaded') as string,
    });
  });
});

describe('anthropic() served from a script', () => {
  it('places the system prompt, merges tool results into one user turn, and sends tools', async () => {
    const bodies: Record<string, unknown>[] = [];
    server.use(
      ...anthropicHandlers(
        [
          {
            toolCalls: [
              { name: 'get_weather', args: { city: 'Paris' } },
              { name: 'get_weather', args: { city: 'Oslo' } },
            ],
          },
          { text: 'Warm in Paris.' },
        ],
        { onRequest: body => bodies.push(body as Record<string, unknown>) },
      ),
    );
    const result = await run(
      agent({ name: 'forecaster', instructions: 'Be brief.', model: claude(), tools: [weather] }),
      'Weather?',
    );
    expect(result.output).toBe('Warm in Paris.');
    expect(bodies[1]).toMatchObject({
      system: 'Be brief.',
      max_tokens: 4096,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_1_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'call_1_2', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1_1', content: 'Paris: 21°C' },
            { type: 'tool_result', tool_use_id: 'call_1_2', content: 'Oslo: 21°C' },
          ],
        },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          input_schema: expect.objectContaining({ type: 'object' }) as object,
        },
      ],
    });
  });

  it('gives the same response streaming and not, with cache tokens in usage', async () => {
    const step = {
      text: 'Sunny.',
      usage: { promptTokens: 100, completionTokens: 3, cacheReadTokens: 60, cacheWriteTokens: 10 },
    };
    server.use(...anthropicHandlers([step, step]));
    const model = claude();
    const plain = await model.generate(request());
    expect(plain).toEqual({
      text: 'Sunny.',
      toolCalls: [],
      finishReason: 'stop',
      usage: { promptTokens: 100, completionTokens: 3, cacheReadTokens: 60, cacheWriteTokens: 10 },
      responseId: 'msg_fake_1',
      responseModel: 'claude-sonnet-4-6',
    });
    expect(await streamed(model)).toEqual({ ...plain, responseId: 'msg_fake_2' });
  });

  it('maps every stop reason', async () => {
    const reasons = ['stop', 'length', 'content_filter', 'tool_calls'] as const;
    server.use(...anthropicHandlers(reasons.map(finishReason => ({ text: 'x', finishReason }))));
    const model = claude();
    for (const reason of reasons)
      expect((await model.generate(request())).finishReason).toBe(reason);
  });

  it('maps provider errors to typed errors', async () => {
    server.use(
      ...anthropicHandlers([
        { error: { status: 429, retryAfterMs: 2000, message: 'Too many requests' } },
        { error: { status: 529, message: 'Overloaded' } },
        { error: { status: 400, message: 'max_tokens too large' } },
        { error: { status: 401 } },
      ]),
    );
    const model = claude();
    await expect(model.generate(request())).rejects.toMatchObject({
      kind: 'rate_limit',
      retryAfterMs: 2000,
      isRetryable: true,
    });
    await expect(model.generate(request())).rejects.toMatchObject({
      kind: 'server',
      status: 529,
      isRetryable: true,
    });
    await expect(model.generate(request())).rejects.toMatchObject({
      kind: 'bad_request',
      isRetryable: false,
      message: expect.stringContaining('max_tokens too large') as string,
    });
    await expect(model.generate(request())).rejects.toMatchObject({
      kind: 'authentication',
      isRetryable: false,
    });
  });

  it('reports a stream cut mid-way as interrupted', async () => {
    server.use(...anthropicHandlers([{ text: 'one two three', cutAfterDeltas: 1 }]));
    await expect(streamed(claude())).rejects.toMatchObject({ kind: 'stream_interrupted' });
  });

  it('names ANTHROPIC_API_KEY when no key is given', async () => {
    const before = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      await expect(anthropic('claude-sonnet-4-6', { baseURL }).generate(request())).rejects.toThrow(
        'Anthropic API key is missing: pass it as anthropic(model, { apiKey }) or set the ANTHROPIC_API_KEY environment variable.',
      );
    } finally {
      if (before !== undefined) process.env.ANTHROPIC_API_KEY = before;
    }
  });
});

describe("Anthropic's errors, typed", () => {
  it('a 404 (no such model) is not_found, not retried', async () => {
    let calls = 0;
    server.use(
      http.post(`${baseURL}/v1/messages`, () => {
        calls++;
        return Response.json(
          {
            type: 'error',
            error: { type: 'not_found_error', message: 'model: claude-nonexistent' },
          },
          { status: 404 },
        );
      }),
    );
    const result = await run(agent({ name: 'desk', model: claude() }), 'Hi');
    expect(result.stopReason).toBe('error');
    expect(result.error).toMatchObject({ kind: 'not_found', status: 404 });
    expect(calls).toBe(1);
  });
});
