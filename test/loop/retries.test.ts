import { agent, run, steppingClock, tool, type TraceEvent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const virtual = () => ({ clock: steppingClock({ stepMs: 0 }), random: () => 0.5 });
const ofKind = <Name extends TraceEvent['event']>(events: readonly TraceEvent[], name: Name) =>
  events.filter((event): event is Extract<TraceEvent, { event: Name }> => event.event === name);

describe('model retries and fallback', () => {
  it('retries a 429 after the retry-after the provider asked for, then succeeds', async () => {
    const model = fakeLLM([{ error: { status: 429, retryAfterMs: 1500 } }, { text: 'ok' }]);
    const sink = memorySink();
    const options = { trace: sink, ...virtual() };
    const result = await run(agent({ name: 'a', model, circuitBreaker: false }), 'go', options);

    expect(result).toMatchObject({ stopReason: 'completed', output: 'ok' });
    expect(ofKind(sink.events, 'retry')).toMatchObject([
      {
        target: 'model',
        name: 'fake-model',
        attempt: 2,
        delay_ms: 1500,
        error: { type: 'rate_limit' },
      },
    ]);
    const llmEnds = ofKind(sink.events, 'llm_end');
    expect(llmEnds.map(event => [event.attempt, event.error?.type])).toEqual([
      [undefined, 'rate_limit'],
      [2, undefined],
    ]);
    expect(Date.parse(llmEnds[1]!.time) - Date.parse(llmEnds[0]!.time)).toBe(1500);
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('backs off exponentially with jitter when the provider gives no retry-after', async () => {
    const model = fakeLLM([{ error: { status: 503 } }, { error: { status: 500 } }, { text: 'ok' }]);
    const sink = memorySink();
    const result = await run(
      agent({ name: 'a', model, retry: { baseDelayMs: 100 }, circuitBreaker: false }),
      'go',
      { trace: sink, clock: steppingClock(), random: () => 1 },
    );
    expect(result.stopReason).toBe('completed');
    expect(ofKind(sink.events, 'retry').map(event => event.delay_ms)).toEqual([100, 200]);
  });

  it('gives up after 3 attempts and ends with error when there is no fallback', async () => {
    const model = fakeLLM([
      { error: { status: 503 } },
      { error: { status: 503 } },
      { error: { status: 503 } },
    ]);
    const sink = memorySink();
    const result = await run(agent({ name: 'a', model, circuitBreaker: false }), 'go', {
      trace: sink,
      ...virtual(),
    });
    expect(result.stopReason).toBe('error');
    expect(model.calls).toHaveLength(3);
    expect(ofKind(sink.events, 'retry')).toHaveLength(2);
    expect(sink.events.at(-1)).toMatchObject({ stop_reason: 'error', error: { type: 'server' } });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('switches to the fallback model after the retries, recording the switch', async () => {
    const primary = fakeLLM(
      [{ error: { status: 500 } }, { error: { status: 500 } }, { error: { status: 500 } }],
      {
        modelId: 'big-model',
      },
    );
    const fallback = fakeLLM([{ text: 'from the fallback' }], { modelId: 'small-model' });
    const sink = memorySink();
    const result = await run(
      agent({ name: 'a', model: primary, fallbackModel: fallback, circuitBreaker: false }),
      'go',
      { trace: sink, ...virtual() },
    );
    expect(result).toMatchObject({ stopReason: 'completed', output: 'from the fallback' });
    expect(ofKind(sink.events, 'retry').at(-1)).toMatchObject({
      target: 'model',
      name: 'big-model',
      fallback: 'small-model',
      error: { type: 'server' },
    });
    expect(ofKind(sink.events, 'llm_end').at(-1)).toMatchObject({
      model: 'small-model',
      attempt: 1,
    });
  });

  it('does not retry a bad request', async () => {
    const model = fakeLLM([{ error: { status: 400, message: 'invalid schema' } }]);
    const result = await run(agent({ name: 'a', model, circuitBreaker: false }), 'go', virtual());
    expect(result.stopReason).toBe('error');
    expect(model.calls).toHaveLength(1);
  });

  it('times out a model call after limits.modelTimeoutMs and retries it', async () => {
    const model = fakeLLM([() => new Promise(() => undefined), { text: 'second try' }]);
    const sink = memorySink();
    const result = await run(
      agent({ name: 'a', model, limits: { modelTimeoutMs: 5 }, circuitBreaker: false }),
      'go',
      { trace: sink, ...virtual() },
    );
    expect(result).toMatchObject({ stopReason: 'completed', output: 'second try' });
    expect(ofKind(sink.events, 'llm_end')[0]).toMatchObject({
      error: {
        type: 'timeout',
        message:
          "Model 'fake-model' did not answer within 5 ms (limits.modelTimeoutMs). The call is retried.",
      },
    });
  });
});

describe('a stream cut mid-answer', () => {
  it('is retried, the partial answer dropped, and the trace pairs', async () => {
    const { stream } = await import('@agent-trace/core');
    const model = fakeLLM([
      { text: 'partial answer here', cutAfterDeltas: 1 },
      { text: 'full answer' },
    ]);
    const sink = memorySink();
    const running = stream(agent({ name: 'a', model, circuitBreaker: false }), 'go', {
      trace: sink,
      ...virtual(),
    });
    const deltas: string[] = [];
    for await (const chunk of running) if (chunk.type === 'delta') deltas.push(chunk.data.text);
    const result = await running.result;
    expect(result).toMatchObject({ stopReason: 'completed', output: 'full answer' });
    expect(deltas).toEqual(['partial ', 'full ', 'answer']);
    expect(ofKind(sink.events, 'llm_end')[0]).toMatchObject({
      error: { type: 'stream_interrupted' },
    });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });
});

describe('degraded runs', () => {
  it('stops with tool_failure_degraded when the LLM calls an unavailable tool again', async () => {
    const broken = tool({
      name: 'broken',
      description: 'Always fails',
      input: z.object({ n: z.number() }),
      execute: () => {
        throw new Error('down');
      },
    });
    const model = fakeLLM([
      { toolCalls: [{ name: 'broken', args: { n: 1 } }] },
      { toolCalls: [{ name: 'broken', args: { n: 2 } }] },
    ]);
    const sink = memorySink();
    const result = await run(
      agent({ name: 'a', model, tools: [broken], circuitBreaker: false }),
      'go',
      {
        trace: sink,
      },
    );
    expect(result.stopReason).toBe('tool_failure_degraded');
    expect(result.detail).toBe(
      "the LLM asked for tool 'broken' again after it was declared unavailable, instead of answering without it",
    );
    expect(sink.events.at(-1)).toMatchObject({
      stop_reason: 'tool_failure_degraded',
      degraded_tools: ['broken'],
    });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('does not retry a call the LLM got wrong (invalid arguments)', async () => {
    let runs = 0;
    const strict = tool({
      name: 'strict',
      description: 'Needs n',
      input: z.object({ n: z.number() }),
      execute: () => ++runs,
    });
    const model = fakeLLM([{ toolCalls: [{ name: 'strict', args: {} }] }, { text: 'ok' }]);
    const result = await run(agent({ name: 'a', model, tools: [strict] }), 'go');
    expect(result.toolCalls[0]).toMatchObject({ attempts: 1 });
    expect(result.degradedTools).toEqual([]);
    expect(runs).toBe(0);
  });

  it('keeps parallel results in the order asked when one call is retried', async () => {
    let failures = 1;
    const sometimes = tool({
      name: 'sometimes',
      description: 'Fails once',
      input: z.object({}),
      execute: () => {
        if (failures-- > 0) throw new Error('blip');
        return 'first';
      },
    });
    const steady = tool({
      name: 'steady',
      description: 'Works',
      input: z.object({}),
      execute: () => 'second',
    });
    const model = fakeLLM([
      { toolCalls: [{ name: 'sometimes' }, { name: 'steady' }] },
      { text: 'done' },
    ]);
    const result = await run(
      agent({ name: 'a', model, tools: [sometimes, steady], circuitBreaker: false }),
      'go',
    );
    expect(result.toolCalls.map(call => [call.toolName, call.result, call.attempts])).toEqual([
      ['sometimes', 'first', 2],
      ['steady', 'second', 1],
    ]);
    expect(
      model.calls[1]!.messages.slice(-2).map(message => message.role === 'tool' && message.content),
    ).toEqual(['first', 'second']);
  });
});
