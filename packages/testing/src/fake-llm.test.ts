import { ModelCallError, type ModelRequest, type ModelStreamPart } from '@agent-trace/core';
import { StreamAssembler } from '@agent-trace/core/record';
import { describe, expect, it } from 'vitest';
import { fakeLLM } from './fake-llm.js';

function request(
  messages: ModelRequest['messages'] = [{ role: 'user', content: 'hi' }],
): ModelRequest {
  return { instructions: 'Be brief.', messages, tools: [], agentName: 'tester' };
}

async function collect(parts: AsyncIterable<ModelStreamPart>) {
  const list: ModelStreamPart[] = [];
  for await (const part of parts) list.push(part);
  return list;
}

describe('fakeLLM', () => {
  it('answers each call with the next step, in generate and stream alike', async () => {
    const model = fakeLLM([
      { text: 'first answer here', usage: { promptTokens: 7, completionTokens: 3 } },
      { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] },
    ]);
    expect(await model.generate(request())).toEqual({
      text: 'first answer here',
      toolCalls: [],
      finishReason: 'stop',
      usage: { promptTokens: 7, completionTokens: 3 },
      responseModel: 'fake-model',
    });
    const parts = await collect(model.stream(request()));
    const assembler = new StreamAssembler();
    for (const part of parts) assembler.add(part);
    expect(assembler.finish()).toMatchObject({
      toolCalls: [{ callId: 'call_2_1', toolName: 'add', argumentsText: '{"a":1,"b":2}' }],
      finishReason: 'tool_calls',
      responseModel: 'fake-model',
    });
    expect(parts.filter(part => part.type === 'tool-call-delta')).toHaveLength(2);
  });

  it('splits streamed text into several deltas that join back to the text', async () => {
    const parts = await collect(fakeLLM([{ text: 'one two  three' }]).stream(request()));
    const deltas = parts.flatMap(part => (part.type === 'text-delta' ? [part.text] : []));
    expect(deltas).toEqual(['one ', 'two  ', 'three']);
  });

  it('fails a call past the end of the script, saying how many steps it has', async () => {
    const model = fakeLLM([{ text: 'only' }]);
    await model.generate(request());
    const error = await model.generate(request()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ kind: 'script_exhausted', isRetryable: false });
    expect((error as Error).message).toBe(
      "FakeLLM 'fake-model' was called a 2nd time (by agent 'tester'), but its script has only 1 step. Add a step to the script, or find out why the agent called the model again.",
    );
  });

  it('throws typed provider errors for error steps', async () => {
    const model = fakeLLM([
      { error: { status: 429, retryAfterMs: 1500 } },
      { error: { status: 503 } },
      { error: { status: 400, message: 'nope' } },
    ]);
    await expect(model.generate(request())).rejects.toMatchObject({
      kind: 'rate_limit',
      status: 429,
      retryAfterMs: 1500,
      isRetryable: true,
    });
    await expect(collect(model.stream(request()))).rejects.toMatchObject({
      kind: 'server',
      isRetryable: true,
    });
    await expect(model.generate(request())).rejects.toMatchObject({
      kind: 'bad_request',
      isRetryable: false,
      message: 'nope',
    });
  });

  it('lets a responder compute the step from the request', async () => {
    const model = fakeLLM([
      (incoming, { index }) => ({ text: `${index}: ${incoming.messages.length} messages` }),
    ]);
    expect((await model.generate(request())).text).toBe('1: 1 messages');
  });

  it('records each call with the messages it saw, unaffected by later appends', async () => {
    const model = fakeLLM([{ text: 'a' }, { text: 'b' }]);
    const history: ModelRequest['messages'][number][] = [{ role: 'user', content: 'hi' }];
    await model.generate(request(history));
    history.push({ role: 'assistant', content: 'a', toolCalls: [] });
    await model.stream(request(history))[Symbol.asyncIterator]().next();
    expect(
      model.calls.map(call => [call.index, call.messages.length, call.streaming, call.agentName]),
    ).toEqual([
      [1, 1, false, 'tester'],
      [2, 2, true, 'tester'],
    ]);
  });

  it('assertComplete reports unused steps and passes once all are used', async () => {
    const model = fakeLLM([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    await model.generate(request());
    expect(model.remainingSteps).toBe(2);
    expect(() => model.assertComplete()).toThrow(
      "FakeLLM 'fake-model' has 2 unused steps (steps 2 to 3 of 3); it was called 1 time. Remove the extra steps, or find out why the agent stopped early.",
    );
    await model.generate(request());
    await model.generate(request());
    expect(() => model.assertComplete()).not.toThrow();
  });

  it('splits streamed text as the step says: given pieces or a fixed size', async () => {
    const model = fakeLLM([
      { text: 'Hello world', deltas: ['Hel', 'lo wor', 'ld'] },
      { text: 'abcdefg', deltas: 3 },
    ]);
    const texts = async () =>
      (await collect(model.stream(request()))).flatMap(part =>
        part.type === 'text-delta' ? [part.text] : [],
      );
    expect(await texts()).toEqual(['Hel', 'lo wor', 'ld']);
    expect(await texts()).toEqual(['abc', 'def', 'g']);
  });

  it('refuses deltas that do not join to the text', async () => {
    const model = fakeLLM([{ text: 'Hello', deltas: ['He', 'y'] }]);
    await expect(collect(model.stream(request()))).rejects.toThrow(
      `FakeLLM step 'deltas' must join to its text: "Hey" is not "Hello".`,
    );
  });

  it('cuts a stream after N deltas with a retryable stream_interrupted error', async () => {
    const model = fakeLLM([
      { text: 'one two three', cutAfterDeltas: 2 },
      { text: 'x', cutAfterDeltas: 0 },
    ]);
    const parts: string[] = [];
    const error = await (async () => {
      for await (const part of model.stream(request()))
        if (part.type === 'text-delta') parts.push(part.text);
    })().catch((caught: unknown) => caught);
    expect(parts).toEqual(['one ', 'two ']);
    expect(error).toMatchObject({
      kind: 'stream_interrupted',
      isRetryable: true,
      message:
        "FakeLLM 'fake-model' cut the stream of call 1 (agent 'tester') after 2 deltas, as scripted.",
    });
    await expect(model.generate(request())).rejects.toMatchObject({ kind: 'stream_interrupted' });
  });

  it('ends a cut stream with a chunk that is not JSON, or with silence until the call is cancelled', async () => {
    const model = fakeLLM([
      { text: 'one two', cutAfterDeltas: 1, cutAs: 'malformed_chunk' },
      { text: 'one two', cutAfterDeltas: 1, cutAs: 'silence' },
    ]);
    await expect(collect(model.stream(request()))).rejects.toMatchObject({
      kind: 'server',
      isRetryable: true,
      message: expect.stringContaining('a chunk that is not JSON') as string,
    });
    const controller = new AbortController();
    const silent = collect(model.stream({ ...request(), abortSignal: controller.signal }));
    let settled = false;
    silent.then(
      () => (settled = true),
      () => (settled = true),
    );
    await Promise.resolve();
    expect(settled).toBe(false);
    const reason = new Error('cancelled by the idle watch');
    controller.abort(reason);
    await expect(silent).rejects.toBe(reason);
  });

  it('throws a scripted error as is', async () => {
    const boom = new TypeError('fetch failed');
    await expect(fakeLLM([{ throw: boom }]).generate(request())).rejects.toBe(boom);
  });

  it('names the agent and the call in scripted provider errors', async () => {
    await expect(fakeLLM([{ error: { status: 503 } }]).generate(request())).rejects.toThrow(
      "FakeLLM 'fake-model' answered call 1 (agent 'tester') with a scripted HTTP 503 error.",
    );
  });

  it('keeps the last call at hand', async () => {
    const model = fakeLLM([{ text: 'a' }, { text: 'b' }]);
    expect(model.lastCall).toBeUndefined();
    await model.generate(request());
    await model.generate(request([{ role: 'user', content: 'second' }]));
    expect(model.lastCall?.index).toBe(2);
    expect(model.lastCall?.messages).toEqual([{ role: 'user', content: 'second' }]);
  });

  it('handles calls past the script as onUnexpectedCall says', async () => {
    const answered = fakeLLM([], {
      onUnexpectedCall: call => ({ text: `improvised ${call.index}` }),
    });
    expect((await answered.generate(request())).text).toBe('improvised 1');
    const warned: string[] = [];
    const listener = (warning: Error) => warned.push(warning.message);
    process.on('warning', listener);
    try {
      const lenient = fakeLLM([], { onUnexpectedCall: 'warn' });
      expect((await lenient.generate(request())).text).toBe('');
      await new Promise(resolve => setImmediate(resolve));
    } finally {
      process.off('warning', listener);
    }
    expect(warned).toEqual([
      "FakeLLM 'fake-model' was called a 1st time (by agent 'tester'), but its script has only 0 steps. It answered with empty text (onUnexpectedCall: 'warn').",
    ]);
  });
});

describe('a script step with usage keys of another SDK', () => {
  it('is refused when the script is made, naming the step, the key meant and the keys', () => {
    expect(() =>
      fakeLLM([{ text: 'a' }, { text: 'b', usage: { inputTokens: 5 } as never }]),
    ).toThrow(
      'FakeLLM step 2 has usage.inputTokens, which a script does not know (write promptTokens). The keys are promptTokens, completionTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens.',
    );
  });
});
