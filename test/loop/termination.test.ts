import { agent, run, stream, tool, type TraceEvent, type TraceSink } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deterministic } from '../support/deterministic.js';

const ping = tool({
  name: 'ping',
  description: 'Ping',
  input: z.object({}),
  execute: () => 'pong',
});
const count = tool({
  name: 'count',
  description: 'Echo a number',
  input: z.object({ n: z.number() }),
  execute: ({ n }) => n,
});
/** `length` steps that each call `count` with new arguments. */
const counting = (length: number) =>
  Array.from({ length }, (_, n) => ({ toolCalls: [{ name: 'count', args: { n } }] }));

function pairedAndSealed(events: readonly TraceEvent[]): void {
  const report = validateTrace(events);
  expect(report.problems).toEqual([]);
  expect(events.at(-1)?.event).toBe('run_end');
}

describe('termination', () => {
  it('stops with max_steps after maxSteps model calls, running the last step’s tools', async () => {
    const model = fakeLLM(counting(3));
    const sink = memorySink();
    const result = await run(
      agent({ name: 'looper', model, tools: [count], limits: { maxSteps: 3 } }),
      'go',
      {
        trace: sink,
      },
    );

    expect(result.stopReason).toBe('max_steps');
    expect(model.calls).toHaveLength(3);
    expect(result.toolCalls).toHaveLength(3);
    expect(result.steps).toHaveLength(3);
    expect(sink.events.at(-1)).toMatchObject({
      event: 'run_end',
      stop_reason: 'max_steps',
      limit: { name: 'maxSteps', value: 3 },
      counts: { llm_calls: 3, tool_calls: 3 },
    });
    expect(sink.events.find(event => event.event === 'agent_end')).toMatchObject({
      stop_reason: 'max_steps',
      steps: 3,
    });
    pairedAndSealed(sink.events);
  });

  it('uses 10 as the default maxSteps', async () => {
    const model = fakeLLM(counting(10));
    const result = await run(
      agent({ name: 'looper', model, tools: [count], limits: { maxToolCallsPerTool: 20 } }),
      'go',
    );
    expect(result.stopReason).toBe('max_steps');
    expect(model.calls).toHaveLength(10);
  });

  it('ends with error, not a throw, when the model call fails, and pairs every event', async () => {
    const model = fakeLLM([
      { toolCalls: [{ name: 'ping' }] },
      { error: { status: 400, message: 'bad request: context too long' } },
    ]);
    const sink = memorySink();
    const result = await run(agent({ name: 'a', model, tools: [ping] }), 'go', { trace: sink });

    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toBe('bad request: context too long');
    const llmEnd = sink.events.filter(event => event.event === 'llm_end').at(-1);
    expect(llmEnd).toMatchObject({
      error: { type: 'bad_request', message: 'bad request: context too long' },
    });
    expect(sink.events.at(-1)).toMatchObject({
      stop_reason: 'error',
      error: { type: 'bad_request' },
    });
    pairedAndSealed(sink.events);
  });

  it('fails the run with a clear error when the FakeLLM script runs out', async () => {
    const model = fakeLLM([{ toolCalls: [{ name: 'ping' }] }]);
    const result = await run(agent({ name: 'a', model, tools: [ping] }), 'go');
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toBe(
      "FakeLLM 'fake-model' was called a 2nd time (by agent 'a'), but its script has only 1 step. Add a step to the script, or find out why the agent called the model again.",
    );
  });

  it('reports a sink that throws in traceErrors and finishes the run', async () => {
    const broken: TraceSink = {
      write: () => {
        throw new Error('disk on fire');
      },
      flush: () => Promise.resolve(),
    };
    const healthy = memorySink();
    const result = await run(agent({ name: 'a', model: fakeLLM([{ text: 'hi' }]) }), 'go', {
      trace: [broken, healthy],
    });
    expect(result.stopReason).toBe('completed');
    expect(result.traceErrors.map(error => error.message)).toEqual(['disk on fire']);
    pairedAndSealed(healthy.events);
  });
});

describe('abort', () => {
  it('stops with aborted while a tool runs, and the trace still pairs every start with its end', async () => {
    const controller = new AbortController();
    const hang = tool({
      name: 'hang',
      description: 'Hangs until aborted',
      input: z.object({}),
      execute: (_input, { abortSignal }) => {
        setTimeout(() => controller.abort(), 1);
        return new Promise(resolve => abortSignal.addEventListener('abort', () => resolve('late')));
      },
    });
    const model = fakeLLM([{ toolCalls: [{ name: 'hang' }, { name: 'hang' }] }]);
    const sink = memorySink();
    const result = await run(agent({ name: 'a', model, tools: [hang] }), 'go', {
      trace: sink,
      signal: controller.signal,
    });

    expect(result.stopReason).toBe('aborted');
    expect(model.calls).toHaveLength(1);
    const toolEnds = sink.events.filter(event => event.event === 'tool_end');
    expect(toolEnds).toHaveLength(2);
    expect(toolEnds[0]).toMatchObject({ error: { type: 'aborted' } });
    expect(sink.events.at(-1)).toMatchObject({
      stop_reason: 'aborted',
      error: { type: 'aborted' },
    });
    pairedAndSealed(sink.events);
  });

  it('stops a model call that ignores the signal', async () => {
    const controller = new AbortController();
    const model = fakeLLM([
      () => {
        setTimeout(() => controller.abort(new Error('user pressed stop')), 1);
        return new Promise(() => undefined);
      },
    ]);
    const sink = memorySink();
    const result = await run(agent({ name: 'a', model }), 'go', {
      trace: sink,
      signal: controller.signal,
    });
    expect(result.stopReason).toBe('aborted');
    expect(result.error?.message).toBe('Run aborted: user pressed stop.');
    expect(sink.events.find(event => event.event === 'llm_end')).toMatchObject({
      error: { type: 'aborted' },
    });
    pairedAndSealed(sink.events);
  });

  it('does not call the model when the signal has already fired', async () => {
    const model = fakeLLM([]);
    const sink = memorySink();
    const result = await run(agent({ name: 'a', model }), 'go', {
      trace: sink,
      signal: AbortSignal.abort(),
    });
    expect(result.stopReason).toBe('aborted');
    expect(model.calls).toHaveLength(0);
    pairedAndSealed(sink.events);
  });

  it('aborts and seals the run when a stream consumer stops reading early', async () => {
    const model = fakeLLM([{ text: 'one two three four' }]);
    const sink = memorySink();
    const running = stream(agent({ name: 'a', model }), 'go', { trace: sink });
    for await (const chunk of running) if (chunk.type === 'delta') break;
    const result = await running.result;
    expect(result.stopReason).toBe('aborted');
    expect(result.error?.message).toBe('Run aborted: the stream consumer stopped reading.');
    pairedAndSealed(sink.events);
  });
});

describe('streaming and chunks', () => {
  const script = () =>
    fakeLLM([
      {
        text: 'Let me add.',
        toolCalls: [
          { name: 'add', args: { a: 1, b: 2 } },
          { name: 'add', args: { a: 3, b: 4 } },
        ],
      },
      { text: 'The sums are 3 and 7.' },
    ]);
  const add = tool({
    name: 'add',
    description: 'Add',
    input: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  });

  it('gives the same result and the same trace streaming and not (apart from times and ids)', async () => {
    const plainSink = memorySink();
    const plain = await run(agent({ name: 'a', model: script(), tools: [add] }), 'go', {
      trace: plainSink,
      ...deterministic(),
    });
    const streamedSink = memorySink();
    const streaming = stream(agent({ name: 'a', model: script(), tools: [add] }), 'go', {
      trace: streamedSink,
      ...deterministic(),
    });
    const deltas: string[] = [];
    for await (const chunk of streaming) if (chunk.type === 'delta') deltas.push(chunk.data.text);
    const streamed = await streaming.result;

    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe('Let me add.The sums are 3 and 7.');
    const { runId: _a, ...plainRest } = plain;
    const { runId: _b, ...streamedRest } = streamed;
    // Reading chunks costs clock reads, so on the stepping clock only durations differ.
    const withoutDurations = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value, (key, item: unknown) => (key === 'durationMs' ? 0 : item)));
    expect(withoutDurations(streamedRest)).toEqual(withoutDurations(plainRest));
    // A streamed call also says so, when its first chunk came and how many came.
    const strip = (events: TraceEvent[]) =>
      events.map(
        ({
          time: _t,
          duration_ms: _d,
          stream: _stream,
          first_chunk_ms: _first,
          chunks: _chunks,
          ...rest
        }: TraceEvent & {
          duration_ms?: number;
          stream?: true;
          first_chunk_ms?: number;
          chunks?: number;
        }) => rest,
      );
    expect(strip(streamedSink.events)).toEqual(strip(plainSink.events));
    const streamedCall = streamedSink.events.find(event => event.event === 'llm_end');
    expect(streamedCall).toMatchObject({ chunks: expect.any(Number) as number });
    expect(streamedSink.events.find(event => event.event === 'llm_start')).toMatchObject({
      stream: true,
    });
  });

  it('numbers chunks 0, 1, 2, … and names the agent on each', async () => {
    const chunks = [];
    for await (const chunk of stream(agent({ name: 'adder', model: script(), tools: [add] }), 'go'))
      chunks.push(chunk);
    expect(chunks.map(chunk => chunk.seq)).toEqual(chunks.map((_, index) => index));
    expect(new Set(chunks.map(chunk => chunk.agent))).toEqual(new Set(['adder']));
    expect(chunks.map(chunk => chunk.type).filter(type => type !== 'delta')).toEqual([
      'usage',
      'tool_call',
      'tool_call',
      'tool_response',
      'tool_response',
      'usage',
    ]);
  });

  it('runs the stream to the end when only the result is awaited', async () => {
    const result = await stream(agent({ name: 'a', model: script(), tools: [add] }), 'go').result;
    expect(result.output).toBe('The sums are 3 and 7.');
  });

  it('refuses to iterate one stream twice', async () => {
    const running = stream(agent({ name: 'a', model: script(), tools: [add] }), 'go');
    for await (const chunk of running) void chunk;
    expect(() => running[Symbol.asyncIterator]()).toThrow(/a stream can be iterated once/);
  });
});

describe('trace size', () => {
  it('records in llm_start only what is new since the agent’s previous call, plus a hash of the whole request', async () => {
    const model = fakeLLM([
      { toolCalls: [{ name: 'ping' }] },
      { toolCalls: [{ name: 'ping' }] },
      { text: 'done' },
    ]);
    const sink = memorySink();
    await run(agent({ name: 'a', model, tools: [ping] }), 'hello', { trace: sink });
    const starts = sink.events.filter(event => event.event === 'llm_start');
    expect(starts.map(event => event.messages.map(message => message.role))).toEqual([
      ['user'],
      ['assistant', 'tool'],
      ['assistant', 'tool'],
    ]);
    expect(starts.map(event => event.message_count)).toEqual([1, 3, 5]);
    expect(new Set(starts.map(event => event.request_hash)).size).toBe(3);
  });

  it('gives the same request the same hash in two runs', async () => {
    const hashes = async () => {
      const sink = memorySink();
      await run(
        agent({
          name: 'a',
          instructions: 'Be brief.',
          model: fakeLLM([{ toolCalls: [{ name: 'ping' }] }, { text: 'ok' }]),
          tools: [ping],
        }),
        'hi',
        { trace: sink },
      );
      return sink.events.flatMap(event =>
        event.event === 'llm_start' ? [event.request_hash] : [],
      );
    };
    expect(await hashes()).toEqual(await hashes());
  });

  it('grows linearly with the run', async () => {
    const sizeFor = async (steps: number) => {
      const model = fakeLLM([...counting(steps - 1), { text: 'done' }]);
      const sink = memorySink();
      await run(
        agent({
          name: 'a',
          model,
          tools: [count],
          limits: { maxSteps: steps, maxToolCallsPerTool: steps },
        }),
        'go',
        {
          trace: sink,
          ...deterministic(),
        },
      );
      return sink.events.reduce((bytes, event) => bytes + JSON.stringify(event).length, 0);
    };
    const [small, large] = [await sizeFor(50), await sizeFor(500)];
    expect(large / small).toBeGreaterThan(9);
    expect(large / small).toBeLessThan(11);
  });
});
