import { agent, run, tool } from '@agent-trace/core';
import { costOf, defaultPrices, PriceTable } from '@agent-trace/core/cost';
import { openai } from '@agent-trace/core/openai';
import { fakeLLM } from '@agent-trace/testing';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cli } from '../../support/cli.js';
import { useMswServer } from '../../support/provider-wire.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const server = useMswServer();

/** 120,000 input tokens (20,000 read from the cache, 10,000 written to it) and 30,000 output. */
const usage = {
  promptTokens: 120_000,
  cacheReadTokens: 20_000,
  cacheWriteTokens: 10_000,
  completionTokens: 30_000,
};

/**
 * Worked by hand: 90,000 uncached input × input price + 20,000 × cached price + 10,000 × cache
 * write price (the input price for OpenAI) + 30,000 × output price, per million tokens.
 */
const byHand: Record<string, number> = {
  'openai:gpt-4o': 0.575, // 225,000 + 25,000 + 25,000 + 300,000
  'openai:gpt-4o-mini': 0.0345, // 13,500 + 1,500 + 1,500 + 18,000
  'openai:gpt-4.1': 0.45, // 180,000 + 10,000 + 20,000 + 240,000
  'openai:gpt-4.1-mini': 0.09, // 36,000 + 2,000 + 4,000 + 48,000
  'openai:gpt-4.1-nano': 0.0225, // 9,000 + 500 + 1,000 + 12,000
  'openai:o3': 0.45, // as gpt-4.1
  'openai:o4-mini': 0.2475, // 99,000 + 5,500 + 11,000 + 132,000
  'openai:gpt-5': 0.4275, // 112,500 + 2,500 + 12,500 + 300,000
  'openai:gpt-5-mini': 0.0855, // 22,500 + 500 + 2,500 + 60,000
  'openai:gpt-5-nano': 0.0171, // 4,500 + 100 + 500 + 12,000
  'anthropic:claude-opus-4-1': 3.8175, // 1,350,000 + 30,000 + 187,500 + 2,250,000
  'anthropic:claude-haiku-4-5': 0.2545, // 90,000 + 2,000 + 12,500 + 150,000
};

describe('prices and cost', () => {
  it('every priced model costs what was worked out by hand, cached tokens included', () => {
    expect(Object.keys(defaultPrices).sort()).toEqual(Object.keys(byHand).sort());
    for (const [key, expected] of Object.entries(byHand))
      expect([key, costOf(usage, defaultPrices[key]!)]).toEqual([key, expected]);
  });

  it('every price says where it comes from and when', () => {
    for (const price of Object.values(defaultPrices)) {
      expect(price.source).toMatch(/^https:\/\//);
      expect(price.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('finds a dated snapshot under its base model; an unknown model has no price; entries override', () => {
    const table = new PriceTable({
      'openai:gpt-4o': {
        inputPerMillion: 1,
        outputPerMillion: 1,
        source: 'contract',
        asOf: '2026-01-01',
      },
      'fake:gpt-4o': {
        inputPerMillion: 2,
        outputPerMillion: 4,
        source: 'test',
        asOf: '2026-01-01',
      },
    });
    expect(table.priceOf('openai.responses', 'gpt-4o-2024-08-06')?.price.source).toBe('contract');
    expect(table.priceOf('anthropic.messages', 'claude-haiku-4-5-20251001')?.key).toBe(
      'anthropic:claude-haiku-4-5',
    );
    expect(table.priceOf('fake', 'gpt-4o')?.key).toBe('fake:gpt-4o');
    expect(table.priceOf('openai.chat', 'my-fine-tune')).toBeUndefined();
  });
});

/** The scripted models priced as gpt-4o is. */
const fakeGpt4oPrice = {
  'fake:gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10, source: 'test', asOf: '2026-01-01' },
};

const lookup = tool({
  name: 'lookup',
  description: 'Look up',
  input: z.object({ q: z.string() }),
  execute: ({ q }) => q,
});

describe('cost in the trace', () => {
  it('on each llm_end, and summed on agent_end and run_end; an unpriced model is said so', async () => {
    const priced = fakeLLM(
      [
        {
          toolCalls: [{ name: 'lookup', args: { q: 'x' } }],
          usage: { promptTokens: 1000, completionTokens: 100 },
        },
        { text: 'done', usage: { promptTokens: 2000, completionTokens: 50 } },
      ],
      { modelId: 'gpt-4o' },
    );
    const sink = memorySink();
    await run(agent({ name: 'a', model: priced, tools: [lookup] }), 'go', {
      trace: sink,
      prices: fakeGpt4oPrice,
    });
    const costs = sink.events.flatMap(event => (event.event === 'llm_end' ? [event.cost_usd] : []));
    expect(costs).toEqual([0.0035, 0.0055]); // 2,500 + 1,000; 5,000 + 500 (per million)
    expect(sink.events.find(event => event.event === 'agent_end')).toMatchObject({
      cost: { usd: 0.009, unpriced_calls: 0 },
    });
    expect(sink.events.at(-1)).toMatchObject({
      event: 'run_end',
      cost: { usd: 0.009, unpriced_calls: 0 },
    });

    const unpriced = memorySink();
    await run(agent({ name: 'b', model: fakeLLM([{ text: 'hi' }]) }), 'go', { trace: unpriced });
    expect(unpriced.events.find(event => event.event === 'llm_end')).not.toHaveProperty('cost_usd');
    expect(unpriced.events.at(-1)).toMatchObject({
      cost: { usd: 0, unpriced_calls: 1, unpriced_models: ['fake/fake-model'] },
    });
    expect(validateTrace(unpriced.events).problems).toEqual([]);
  });

  it('over the OpenAI wire: the real price of the model the adapter called', async () => {
    const baseURL = 'http://cost.llm.test/v1';
    server.use(
      ...openaiHandlers(
        [
          {
            text: 'ok',
            usage: { promptTokens: 10_000, completionTokens: 1_000, cacheReadTokens: 4_000 },
          },
        ],
        { baseURL },
      ),
    );
    const sink = memorySink();
    await run(agent({ name: 'a', model: openai('gpt-4o-mini', { apiKey: 'k', baseURL }) }), 'go', {
      trace: sink,
    });
    // 6,000 × 0.15 + 4,000 × 0.075 + 1,000 × 0.6 = 900 + 300 + 600 per million.
    expect(sink.events.find(event => event.event === 'llm_end')).toMatchObject({
      cost_usd: 0.0018,
    });
  });

  it('replay and stats show it', async () => {
    const sink = memorySink();
    await run(
      agent({
        name: 'a',
        model: fakeLLM([{ text: 'ok', usage: { promptTokens: 1000, completionTokens: 100 } }], {
          modelId: 'gpt-4o',
        }),
      }),
      'go',
      {
        trace: sink,
        prices: fakeGpt4oPrice,
      },
    );
    const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-cost-')), 'cost.jsonl');
    writeFileSync(path, sink.events.map(event => `${JSON.stringify(event)}\n`).join(''));
    const replay = await cli(['replay', path]);
    expect(replay.stdout).toMatch(/llm #1 +gpt-4o +1000→100 tok +\$0\.0035/);
    expect(replay.stdout).toMatch(/stop: completed · .* · \$0\.0035/);
    const stats = await cli(['stats', path]);
    expect(stats.stdout).toMatch(/fake\/gpt-4o .* \$0\.0035/);
  });
});
