import { agent, stream, steppingClock, type LanguageModel } from '@agent-trace/core';
import { anthropic } from '@agent-trace/core/anthropic';
import { openai } from '@agent-trace/core/openai';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMswServer } from '../support/provider-wire.js';

const server = useMswServer();
const baseURL = 'http://llm.test/v1';

const goodChunk =
  'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n';
const malformed = `${goodChunk}data: {"choices": [ {oops\n\n`;
const goodAnswer = `${goodChunk}data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`;

const asString = (body: string) =>
  new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
const asStream = (body: string) =>
  new HttpResponse(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );

async function drain(model: LanguageModel, limits = {}) {
  const sink = memorySink();
  const running = stream(agent({ name: 'a', model, circuitBreaker: false, limits }), 'go', {
    trace: sink,
    clock: steppingClock(),
  });
  const chunks = [];
  for await (const chunk of running) chunks.push(chunk);
  return { result: await running.result, chunks, events: sink.events };
}

describe('a malformed chunk on the wire', () => {
  for (const [form, respond] of [
    ['a string', asString],
    ['a stream', asStream],
  ] as const) {
    it(`ends the model call with a typed, retried error when the body arrives as ${form}`, async () => {
      let calls = 0;
      server.use(
        http.post(`${baseURL}/chat/completions`, () =>
          respond(++calls < 3 ? malformed : goodAnswer),
        ),
      );
      const started = performance.now();
      const { result, events } = await drain(openai('gpt-4o-mini', { apiKey: 'k', baseURL }));
      expect(performance.now() - started).toBeLessThan(1000);
      expect(result).toMatchObject({ stopReason: 'completed', output: 'Hi' });
      const failures = events.filter(event => event.event === 'llm_end' && 'error' in event);
      expect(failures).toHaveLength(2);
      expect(failures[0]).toMatchObject({
        error: { type: 'server', message: expect.stringContaining('not JSON') as string },
      });
      expect(validateTrace(events).problems).toEqual([]);
    });
  }

  it('fails the run with the typed error once the retries are spent', async () => {
    server.use(http.post(`${baseURL}/chat/completions`, () => asString(malformed)));
    const { result, chunks } = await drain(openai('gpt-4o-mini', { apiKey: 'k', baseURL }));
    expect(result.stopReason).toBe('error');
    expect(result.error).toMatchObject({ name: 'ModelCallError', kind: 'server' });
    expect(chunks.at(-1)).toMatchObject({ type: 'error' });
  });

  it('does the same on the Anthropic wire', async () => {
    server.use(
      http.post('http://claude.test/v1/messages', () =>
        asString('event: message_start\ndata: {"type":"message_start", oops\n\n'),
      ),
    );
    const { result } = await drain(
      anthropic('claude-sonnet-4-6', { apiKey: 'k', baseURL: 'http://claude.test' }),
    );
    expect(result.error).toMatchObject({
      kind: 'server',
      message: expect.stringContaining('Anthropic sent a stream chunk that is not JSON') as string,
    });
  });
});

/** The reason `signal` is aborted with, once it is (at once if it is already); never without one. */
function abortedReason(signal: AbortSignal | undefined): Promise<unknown> {
  return new Promise(resolve => {
    if (signal?.aborted === true) resolve(signal.reason);
    signal?.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });
}

describe('the signal a model call gets', () => {
  /** A model whose stream waits until its request is aborted, and keeps the abort's reason. */
  function waitingForAbort(): LanguageModel & { reasons: unknown[] } {
    const reasons: unknown[] = [];
    return {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'waiting',
      reasons,
      generate: () => Promise.reject(new Error('only streams')),
      async *stream(request) {
        yield { type: 'text-delta', text: 'thinking' };
        reasons.push(await abortedReason(request.abortSignal));
      },
    };
  }

  it("is aborted by the run's signal, with the run's reason, when the call also has time limits", async () => {
    const model = waitingForAbort();
    const stop = new AbortController();
    const running = stream(agent({ name: 'a', model, circuitBreaker: false }), 'go', {
      signal: stop.signal,
    });
    setTimeout(() => stop.abort('the user left'), 50);
    for await (const chunk of running) void chunk;
    const result = await running.result;
    expect(model.reasons).toEqual(['the user left']);
    expect(result.stopReason).not.toBe('completed');
  });
});

describe('a stream that goes silent', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A model whose first stream sends one delta and then nothing, until its request is cancelled. */
  function silentThenAnswering(): LanguageModel & { cancelled: unknown[] } {
    let call = 0;
    const cancelled: unknown[] = [];
    return {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'silent',
      cancelled,
      generate: () => Promise.reject(new Error('only streams')),
      async *stream(request) {
        call++;
        yield { type: 'text-delta', text: 'thinking' };
        if (call === 1) {
          cancelled.push(await abortedReason(request.abortSignal));
          return;
        }
        yield { type: 'text-delta', text: ' done' };
        yield {
          type: 'finish',
          finishReason: 'stop',
          usage: { promptTokens: 1, completionTokens: 2 },
        };
      },
    };
  }

  it('fails the call as stream_interrupted after the idle timeout, cancels it, and retries', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const model = silentThenAnswering();
    const running = drain(model, { streamIdleTimeoutMs: 5_000 });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(model.cancelled).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const { result, events } = await running;
    expect(model.cancelled).toEqual([expect.objectContaining({ kind: 'stream_interrupted' })]);
    expect(result).toMatchObject({ stopReason: 'completed', output: 'thinking done' });
    expect(events.find(event => event.event === 'llm_end')).toMatchObject({
      error: {
        type: 'stream_interrupted',
        message: expect.stringContaining('limits.streamIdleTimeoutMs') as string,
      },
    });
    expect(validateTrace(events).problems).toEqual([]);
  });

  it('is on by default, at two minutes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const model = silentThenAnswering();
    const running = drain(model);
    await vi.advanceTimersByTimeAsync(119_999);
    expect(model.cancelled).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await running).result.stopReason).toBe('completed');
  });
});
