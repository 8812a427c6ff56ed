import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, stream, tool, virtualClock, type TraceEvent } from '@agent-trace/core';
import { cachedModel, memoryCache } from '@agent-trace/core/cache';
import { openai } from '@agent-trace/core/openai';
import { cassetteMode, fakeLLM, normalizeTrace, withCassette } from '@agent-trace/testing';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cli } from '../../support/cli.js';
import { useMswServer } from '../../support/provider-wire.js';

const server = useMswServer();
const baseURL = 'http://cassette.llm.test/v1';
const lookup = tool({
  name: 'lookup',
  description: 'Look an order up',
  input: z.object({ order: z.number() }),
  execute: ({ order }) => ({ order, status: 'paid' }),
});
const script = [
  {
    toolCalls: [{ name: 'lookup', args: { order: 42 } }],
    usage: { promptTokens: 120, completionTokens: 20 },
  },
  { text: 'Order 42 is paid.', usage: { promptTokens: 160, completionTokens: 8 } },
];
const desk = (model: ReturnType<typeof openai>, instructions = 'Answer briefly.') =>
  agent({ name: 'desk', instructions, model, tools: [lookup] });

/** The trace as compared: a hit's mark and its (zero) cost aside. */
const comparable = (events: readonly TraceEvent[]) =>
  normalizeTrace(events).map(({ cache_hit: _hit, cost_usd: _cost, cost: _total, ...rest }) => rest);

describe('a cassette', () => {
  it('recorded over the wire replays offline: the same trace, every answer a hit that costs nothing', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-cassette-')), 'desk.jsonl');
    server.use(...openaiHandlers(script, { baseURL }));
    const recorded = memorySink();
    const model = () =>
      openai('gpt-4o-mini', { apiKey: 'sk-test-1234567890abcdefghijklmnop', baseURL });
    await run(desk(withCassette(model(), path, { mode: 'record' })), 'Order 42?', {
      trace: recorded,
    });
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);

    server.resetHandlers(); // offline: any request now fails the test
    const replayed = memorySink();
    const result = await run(desk(withCassette(model(), path, { mode: 'replay' })), 'Order 42?', {
      trace: replayed,
    });
    expect(result.output).toBe('Order 42 is paid.');
    expect(comparable(replayed.events)).toEqual(comparable(recorded.events));
    const answers = replayed.events.filter(event => event.event === 'llm_end');
    expect(answers.map(event => [event.cache_hit, event.cost_usd])).toEqual([
      [true, 0],
      [true, 0],
    ]);
    expect(replayed.events.at(-1)).toMatchObject({ cost: { usd: 0 } });
    expect(validateTrace(replayed.events).problems).toEqual([]);
    const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-cassette-')), 'replayed.jsonl');
    writeFileSync(file, replayed.events.map(event => `${JSON.stringify(event)}\n`).join(''));
    expect((await cli(['replay', file])).stdout).toMatch(/llm #2 .* \$0 +cache hit/);
  });

  it('a changed prompt misses, and the error names the closest recording and what differs', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-cassette-')), 'desk.jsonl');
    server.use(...openaiHandlers(script, { baseURL }));
    const model = () => openai('gpt-4o-mini', { apiKey: 'k', baseURL });
    await run(desk(withCassette(model(), path, { mode: 'record' })), 'Order 42?');
    server.resetHandlers();
    const result = await run(
      desk(withCassette(model(), path, { mode: 'replay' }), 'Answer in full sentences.'),
      'Order 42?',
    );
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toMatch(
      /^No recorded answer for this request to openai\.chat\/gpt-4o-mini \(replay mode\)\. The closest of the 2 recorded in .*desk\.jsonl \(recorded [^)]+\) differs in instructions: "Answer briefly\." → "Answer in full sentences\."\. If the change is intended, record the cassette again/,
    );
  });

  it('is written redacted: a secret in a request does not reach the file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-cassette-')), 'desk.jsonl');
    server.use(...openaiHandlers([{ text: 'ok' }], { baseURL }));
    await run(
      agent({
        name: 'a',
        model: withCassette(openai('gpt-4o-mini', { apiKey: 'k', baseURL }), path, {
          mode: 'record',
        }),
      }),
      'my key is sk-proj-abcdefghijklmnopqrstuvwxyz012345',
    );
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz012345');
    expect(text).toContain('"role":"user"');
  });

  it('records only when asked, with a key, and never under CI', () => {
    expect(cassetteMode({}, 'openai.chat')).toBe('replay');
    expect(cassetteMode({ AGENT_TRACE_RECORD: '1' }, 'openai.chat')).toBe('replay');
    expect(cassetteMode({ AGENT_TRACE_RECORD: '1', OPENAI_API_KEY: 'sk' }, 'openai.chat')).toBe(
      'record',
    );
    expect(
      cassetteMode({ AGENT_TRACE_RECORD: '1', OPENAI_API_KEY: 'sk', CI: 'true' }, 'openai.chat'),
    ).toBe('replay');
  });
});

describe('a memory cache', () => {
  it('answers a request it has seen, streamed or not; the least recently used goes first; entries expire', async () => {
    const clock = virtualClock();
    const cache = memoryCache({ maxEntries: 2, ttlMs: 60_000, clock });
    const inner = fakeLLM([{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'four' }]);
    const model = cachedModel(inner, { cache });
    const ask = (input: string) => run(agent({ name: 'a', model }), input, { clock });
    expect((await ask('first')).output).toBe('one');
    const sink = memorySink();
    const again = stream(agent({ name: 'a', model }), 'first', { clock, trace: sink });
    for await (const _chunk of again);
    expect((await again.result).output).toBe('one');
    expect(sink.events.find(event => event.event === 'llm_end')).toMatchObject({ cache_hit: true });
    expect(inner.calls).toHaveLength(1);
    expect((await ask('second')).output).toBe('two');
    expect((await ask('third')).output).toBe('three'); // 'first' is now the least recent: out
    expect(cache.size).toBe(2);
    expect((await ask('second')).output).toBe('two');
    await clock.sleep?.(60_000, undefined);
    expect((await ask('second')).output).toBe('four'); // expired: asked again
  });
});
