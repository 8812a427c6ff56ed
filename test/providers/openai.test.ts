import { agent, run, steppingClock, stream } from '@agent-trace/core';
import { StreamAssembler } from '@agent-trace/core/record';
import { openai } from '@agent-trace/core/openai';
import { openaiHandlers, sseResponse } from '@agent-trace/testing/msw';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  modelRequest as request,
  useMswServer,
  weatherTool as weather,
  wireFixture as fixture,
} from '../support/provider-wire.js';

const server = useMswServer();

const baseURL = 'http://llm.test/v1';
const chat = () => openai('gpt-4o-mini', { apiKey: 'test-key', baseURL });
const responses = () => openai.responses('gpt-4o-mini', { apiKey: 'test-key', baseURL });

async function streamed(model: ReturnType<typeof chat>, input = request()) {
  const assembler = new StreamAssembler();
  const deltas: string[] = [];
  for await (const part of model.stream(input)) {
    assembler.add(part);
    if (part.type === 'text-delta') deltas.push(part.text);
  }
  return { response: assembler.finish(), deltas };
}

describe('openai() over the recorded wire fixtures', () => {
  it('reads the text fixture', async () => {
    server.use(
      http.post(`${baseURL}/chat/completions`, () => sseResponse(fixture('openai-chat-text.sse'))),
    );
    const { response } = await streamed(chat());
    expect(response).toEqual({
      text: 'Hello world',
      toolCalls: [],
      finishReason: 'stop',
      usage: { promptTokens: 9, completionTokens: 2 },
      // The answer's id and the model the provider says answered, from the stream's chunks.
      responseId: 'chatcmpl-fx3',
      responseModel: 'gpt-4o-mini',
    });
  });

  it('reassembles a tool call from fragments', async () => {
    server.use(
      http.post(`${baseURL}/chat/completions`, () =>
        sseResponse(fixture('openai-chat-tool-call.sse')),
      ),
    );
    const { response } = await streamed(chat());
    expect(response.toolCalls).toEqual([
      {
        callId: expect.any(String) as string,
        toolName: 'get_weather',
        argumentsText: expect.stringContaining('Paris') as string,
      },
    ]);
    expect(JSON.parse(response.toolCalls[0]!.argumentsText)).toMatchObject({ city: 'Paris' });
    expect(response.finishReason).toBe('tool_calls');
  });

  it('keys parallel tool calls by index', async () => {
    server.use(
      http.post(`${baseURL}/chat/completions`, () =>
        sseResponse(fixture('openai-chat-parallel-tools.sse')),
      ),
    );
    const { response } = await streamed(chat());
    expect(response.toolCalls).toEqual([
      { callId: 'call_a', toolName: 'get_weather', argumentsText: '{"city":"Paris"}' },
      { callId: 'call_b', toolName: 'get_time', argumentsText: '{"tz":"CET"}' },
    ]);
  });

  it('reads the Responses fixtures: text, and a function call with its separate item id and call_id', async () => {
    server.use(
      http.post(`${baseURL}/responses`, () => sseResponse(fixture('openai-responses-text.sse'))),
    );
    expect((await streamed(responses())).response).toMatchObject({
      text: expect.stringMatching(/.+/) as string,
      finishReason: 'stop',
    });
    server.use(
      http.post(`${baseURL}/responses`, () =>
        sseResponse(fixture('openai-responses-function-call.sse')),
      ),
    );
    const { response } = await streamed(responses());
    expect(response.toolCalls).toEqual([
      { callId: 'call_fx1', toolName: 'get_weather', argumentsText: '{"city":"Paris"}' },
    ]);
    expect(response.finishReason).toBe('tool_calls');
  });
});

describe('openai() served from a script', () => {
  it('gives the same response streaming and not, with usage', async () => {
    const step = { text: 'Sunny in Paris.', usage: { promptTokens: 12, completionTokens: 4 } };
    server.use(...openaiHandlers([step, step]));
    const model = chat();
    const plain = await model.generate(request());
    const { response, deltas } = await streamed(model);
    expect(plain).toEqual({
      text: 'Sunny in Paris.',
      toolCalls: [],
      finishReason: 'stop',
      usage: { promptTokens: 12, completionTokens: 4 },
      responseId: 'fake_1',
      responseModel: 'gpt-4o-mini',
    });
    // The same answer, served a second time: its own id.
    expect(response).toEqual({ ...plain, responseId: 'fake_2' });
    expect(deltas).toEqual(['Sunny ', 'in ', 'Paris.']);
  });

  it('sends instructions, history, tools and tool results in the Chat Completions format', async () => {
    const bodies: unknown[] = [];
    server.use(
      ...openaiHandlers(
        [{ toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] }, { text: '21°C.' }],
        { onRequest: body => bodies.push(body) },
      ),
    );
    const result = await run(
      agent({ name: 'forecaster', instructions: 'Be brief.', model: chat(), tools: [weather] }),
      'Weather in Paris?',
    );
    expect(result).toMatchObject({ stopReason: 'completed', output: '21°C.' });
    expect(bodies[1]).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1_1', content: 'Paris: 21°C' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather',
            parameters: expect.objectContaining({ type: 'object' }) as object,
          },
        },
      ],
    });
  });

  it('maps every finish reason', async () => {
    const reasons = ['stop', 'length', 'content_filter', 'tool_calls'] as const;
    server.use(...openaiHandlers(reasons.map(finishReason => ({ text: 'x', finishReason }))));
    const model = chat();
    for (const reason of reasons)
      expect((await model.generate(request())).finishReason).toBe(reason);
  });

  it('maps every finish reason of the Responses API (completed, incomplete)', async () => {
    const reasons = ['stop', 'length', 'content_filter'] as const;
    server.use(
      ...openaiHandlers(
        reasons.flatMap(finishReason => [
          { text: 'x', finishReason },
          { text: 'x', finishReason },
        ]),
      ),
    );
    const model = responses();
    for (const reason of reasons) {
      expect((await model.generate(request())).finishReason).toBe(reason);
      expect((await streamed(model)).response.finishReason).toBe(reason);
    }
  });

  it('turns a Responses stream that fails mid-way into a retryable server error', async () => {
    const events = [
      {
        type: 'response.created',
        sequence_number: 0,
        response: { id: 'resp_1', status: 'in_progress' },
      },
      {
        type: 'response.failed',
        sequence_number: 1,
        response: {
          id: 'resp_1',
          status: 'failed',
          error: { code: 'server_error', message: 'the model crashed' },
        },
      },
    ];
    server.use(
      http.post(`${baseURL}/responses`, () =>
        sseResponse(
          events.map(event => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(''),
        ),
      ),
    );
    await expect(streamed(responses())).rejects.toMatchObject({
      name: 'ModelCallError',
      kind: 'server',
      isRetryable: true,
      message: 'OpenAI failed mid-stream: the model crashed',
    });
  });

  it('maps provider errors to typed errors, without SDK retries', async () => {
    server.use(
      ...openaiHandlers([
        { error: { status: 429, retryAfterMs: 1500, message: 'Rate limit reached' } },
        { error: { status: 503 } },
        { error: { status: 400, message: 'Invalid schema' } },
        { error: { status: 401, message: 'Incorrect API key' } },
        { throw: new Error('network down') },
      ]),
    );
    const model = chat();
    await expect(model.generate(request())).rejects.toMatchObject({
      kind: 'rate_limit',
      status: 429,
      retryAfterMs: 1500,
      isRetryable: true,
      message: expect.stringContaining('Rate limit reached') as string,
    });
    await expect(model.generate(request())).rejects.toMatchObject({
      kind: 'server',
      status: 503,
      isRetryable: true,
    });
    await expect(model.generate(request())).rejects.toMatchObject({
      kind: 'bad_request',
      isRetryable: false,
      message: 'OpenAI answered 400: 400 Invalid schema',
    });
    await expect(model.generate(request())).rejects.toMatchObject({
      kind: 'authentication',
      isRetryable: false,
    });
    await expect(model.generate(request())).rejects.toMatchObject({
      kind: 'server',
      message: expect.stringContaining('could not be reached') as string,
    });
  });

  it('reports a stream cut mid-way as interrupted, and the run retries it with a paired trace', async () => {
    server.use(
      ...openaiHandlers([
        { text: 'partial answer', cutAfterDeltas: 1 },
        { text: 'complete answer' },
      ]),
    );
    const sink = memorySink();
    const running = stream(agent({ name: 'a', model: chat(), circuitBreaker: false }), 'go', {
      trace: sink,
      clock: steppingClock(),
    });
    for await (const chunk of running) void chunk;
    expect(await running.result).toMatchObject({
      stopReason: 'completed',
      output: 'complete answer',
    });
    expect(sink.events.find(event => event.event === 'llm_end')).toMatchObject({
      error: { type: 'stream_interrupted' },
    });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('serves Responses function calls and usage', async () => {
    server.use(
      ...openaiHandlers([
        {
          toolCalls: [{ name: 'get_weather', args: { city: 'Oslo' }, id: 'call_x' }],
          usage: { promptTokens: 30, completionTokens: 9 },
        },
        {
          toolCalls: [{ name: 'get_weather', args: { city: 'Oslo' }, id: 'call_x' }],
          usage: { promptTokens: 30, completionTokens: 9 },
        },
      ]),
    );
    const model = responses();
    const expected = {
      text: '',
      toolCalls: [{ callId: 'call_x', toolName: 'get_weather', argumentsText: '{"city":"Oslo"}' }],
      finishReason: 'tool_calls',
      usage: { promptTokens: 30, completionTokens: 9 },
      responseId: 'fake_1',
      responseModel: 'gpt-4o-mini',
    };
    expect(await model.generate(request())).toEqual(expected);
    expect((await streamed(model)).response).toEqual({ ...expected, responseId: 'fake_2' });
  });

  it('fails the first call, not the import, when no API key is given, naming the variable', async () => {
    const before = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      await expect(openai('gpt-4o-mini', { baseURL }).generate(request())).rejects.toThrow(
        'OpenAI API key is missing: pass it as openai(model, { apiKey }) or set the OPENAI_API_KEY environment variable.',
      );
    } finally {
      if (before !== undefined) process.env.OPENAI_API_KEY = before;
    }
  });
});

describe('a refusal is what the model said instead of an answer', () => {
  const refusal = "I'm sorry, I can't help with that.";
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-r', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

  it('Chat Completions, streamed and not: its text, finish content_filter', async () => {
    server.use(
      http.post(`${baseURL}/chat/completions`, async ({ request: sent }) => {
        const body = (await sent.json()) as { stream?: boolean };
        if (body.stream !== true)
          return Response.json({
            id: 'chatcmpl-r',
            object: 'chat.completion',
            created: 1,
            model: 'gpt-4o-mini',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: null, refusal },
                finish_reason: 'stop',
              },
            ],
            usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
          });
        return sseResponse(
          `${chunk({ role: 'assistant', content: null, refusal: '' }, null)}${chunk({ refusal: "I'm sorry, " }, null)}${chunk({ refusal: "I can't help with that." }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`,
        );
      }),
    );
    const { response } = await streamed(chat());
    expect(response).toMatchObject({ text: refusal, finishReason: 'content_filter' });
    expect(await chat().generate(request())).toMatchObject({
      text: refusal,
      finishReason: 'content_filter',
    });
  });

  it('Responses, streamed and not: its text, finish content_filter', async () => {
    const output = [
      {
        type: 'message',
        id: 'msg_r',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'refusal', refusal }],
      },
    ];
    const completed = {
      id: 'resp_r',
      object: 'response',
      status: 'completed',
      model: 'gpt-4o-mini',
      output,
      usage: { input_tokens: 12, output_tokens: 9, total_tokens: 21 },
    };
    server.use(
      http.post(`${baseURL}/responses`, async ({ request: sent }) => {
        const body = (await sent.json()) as { stream?: boolean };
        if (body.stream !== true) return Response.json(completed);
        const event = (data: object) => `data: ${JSON.stringify(data)}\n\n`;
        return sseResponse(
          event({
            type: 'response.refusal.delta',
            item_id: 'msg_r',
            output_index: 0,
            content_index: 0,
            delta: "I'm sorry, ",
          }) +
            event({
              type: 'response.refusal.delta',
              item_id: 'msg_r',
              output_index: 0,
              content_index: 0,
              delta: "I can't help with that.",
            }) +
            event({ type: 'response.completed', response: completed }),
        );
      }),
    );
    const { response } = await streamed(responses());
    expect(response).toMatchObject({ text: refusal, finishReason: 'content_filter' });
    expect(await responses().generate(request())).toMatchObject({
      text: refusal,
      finishReason: 'content_filter',
    });
  });
});

describe('a used-up quota', () => {
  it('as a 429 is quota_exceeded, not retried: no wait makes it pass', async () => {
    let calls = 0;
    server.use(
      http.post(`${baseURL}/chat/completions`, () => {
        calls++;
        return Response.json(
          {
            error: {
              message:
                'You exceeded your current quota, please check your plan and billing details.',
              type: 'insufficient_quota',
              param: null,
              code: 'insufficient_quota',
            },
          },
          { status: 429 },
        );
      }),
    );
    const result = await run(agent({ name: 'desk', model: chat() }), 'Hi', {
      clock: steppingClock(),
    });
    expect(result.stopReason).toBe('error');
    expect(result.error).toMatchObject({ kind: 'quota_exceeded', status: 429 });
    expect(calls).toBe(1);
  });
});
