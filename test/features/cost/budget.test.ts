import { agent, run, tool, type TraceEvent } from '@agent-trace/core';
import { costBudget, defaultPrices, estimateRequestTokens } from '@agent-trace/core/cost';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reviewDesk } from '../../../examples/document-review/agents.js';
import { draft } from '../../../examples/document-review/draft.js';

/** The demo desk's scripted models, priced as the OpenAI models they stand for. */
const deskPrices = {
  'fake:gpt-4o': defaultPrices['openai:gpt-4o']!,
  'fake:gpt-4o-mini': defaultPrices['openai:gpt-4o-mini']!,
};

async function desk(options: Parameters<typeof run>[2] = {}) {
  const sink = memorySink();
  // A run stopped by its budget leaves script steps unused.
  const result = await run(
    reviewDesk((_agent, script, modelId) => fakeLLM(script, { modelId, allowUnusedSteps: true })),
    `Review this draft: ${draft}`,
    {
      trace: sink,
      prices: deskPrices,
      ...options,
    },
  );
  return { result, events: sink.events };
}

const answered = (events: readonly TraceEvent[]) =>
  events.filter(
    (event): event is Extract<TraceEvent, { event: 'llm_end' }> =>
      event.event === 'llm_end' && event.error === undefined,
  );

describe('a cost limit', () => {
  it('stops a multi-agent run before the model call it cannot pay for, with a sealed trace', async () => {
    // Input nearly free, output dear: a call's estimate is tiny but never zero, so a limit just
    // above what k calls cost lets exactly k calls be made.
    const prices = {
      'fake:gpt-4o': {
        inputPerMillion: 0.001,
        outputPerMillion: 10,
        source: 'test',
        asOf: '2026-01-01',
      },
      'fake:gpt-4o-mini': {
        inputPerMillion: 0.001,
        outputPerMillion: 1,
        source: 'test',
        asOf: '2026-01-01',
      },
    };
    const full = await desk({ prices });
    const costs = answered(full.events).map(event => event.cost_usd!);
    expect(costs.length).toBeGreaterThan(8);
    for (const k of [1, 5, 8]) {
      // Enough for the first k calls, not for the next one's input.
      const spent = costs.slice(0, k).reduce((sum, cost) => sum + cost, 0);
      const limited = await desk({ prices, maxCostUsd: spent + 1e-9 });
      expect(limited.result.stopReason).toBe('budget_exceeded');
      expect(answered(limited.events)).toHaveLength(k);
      expect(limited.result.limit).toEqual({ name: 'maxCostUsd', value: spent + 1e-9 });
      expect(limited.result.detail).toMatch(
        /^the next model call was not made: its \d+ input tokens \(counted with chars\/4\) would cost about \$[\d.]+, and \$[\d.]+ of maxCostUsd \$[\d.]+ is spent$/,
      );
      expect(validateTrace(limited.events).problems).toEqual([]);
      expect(limited.events.at(-1)).toMatchObject({
        event: 'run_end',
        stop_reason: 'budget_exceeded',
      });
    }
  });

  it('counts the real cost after a call: past the limit, the tools asked for do not run', async () => {
    let ran = 0;
    const search = tool({
      name: 'search',
      description: 'Search',
      input: z.object({ q: z.string() }),
      execute: () => {
        ran++;
        return 'found';
      },
    });
    const model = fakeLLM(
      [
        {
          toolCalls: [{ name: 'search', args: { q: 'x' } }],
          usage: { promptTokens: 10, completionTokens: 100_000 },
        },
      ],
      { modelId: 'gpt-4o' },
    );
    const result = await run(agent({ name: 'a', model, tools: [search] }), 'go', {
      prices: deskPrices,
      maxCostUsd: 0.5, // the answer costs 100,000 × $10 / 1M = $1
    });
    expect(result.stopReason).toBe('budget_exceeded');
    expect(result.detail).toBe(
      'the run has spent $1.000025 of maxCostUsd $0.5 and asked for more tools',
    );
    expect(ran).toBe(0);
  });

  it('a budget shared by runs: the second run stops when the first has spent it', async () => {
    const daily = costBudget({ name: 'daily', limitUsd: 0.002 });
    const ask = () =>
      run(
        agent({
          name: 'a',
          model: fakeLLM([{ text: 'ok', usage: { promptTokens: 100, completionTokens: 100 } }], {
            modelId: 'gpt-4o',
            allowUnusedSteps: true,
          }),
        }),
        'go',
        { prices: deskPrices, budget: daily },
      );
    const first = await ask(); // 100 × 2.5 + 100 × 10 = $0.00125
    expect(first.stopReason).toBe('completed');
    expect(daily.spentUsd).toBe(0.00125);
    const second = await ask();
    expect(second.stopReason).toBe('completed'); // its input is cheap: it is made, and spends past
    const third = await ask();
    expect(third.stopReason).toBe('budget_exceeded');
    // What the budget's runs had spent: a rerun of the third alone starts from it.
    expect(third.limit).toEqual({ name: 'daily', value: 0.002, spent: 0.0025 });
    expect(daily.spentUsd).toBe(0.0025);
  });

  it('says what a run stopped before its first model call spent: $0, on run_end and agent_end', async () => {
    const daily = costBudget({ name: 'daily', limitUsd: 0.001 });
    daily.spend(0.001);
    const sink = memorySink();
    const stopped = await run(
      agent({
        name: 'a',
        model: fakeLLM([{ text: 'ok' }], { modelId: 'gpt-4o', allowUnusedSteps: true }),
      }),
      'go',
      { prices: deskPrices, budget: daily, trace: sink },
    );
    expect(stopped.stopReason).toBe('budget_exceeded');
    const ends = sink.events.filter(
      event => event.event === 'agent_end' || event.event === 'run_end',
    );
    expect(ends).toMatchObject([
      { event: 'agent_end', cost: { usd: 0, unpriced_calls: 0 } },
      { event: 'run_end', cost: { usd: 0, unpriced_calls: 0 } },
    ]);
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('needs a price for every model it keeps', async () => {
    const result = await run(
      agent({ name: 'a', model: fakeLLM([{ text: 'ok' }], { allowUnusedSteps: true }) }),
      'go',
      {
        maxCostUsd: 1,
      },
    );
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toContain(
      "model 'fake-model' (fake) of agent 'a' has no price, so its cost cannot be counted. Add one: run(…, { prices: { 'fake:fake-model':",
    );
  });
});

describe('the pre-call estimate', () => {
  it("counts an OpenAI model's tokens with its tokenizer, others as characters ÷ 4", async () => {
    const request = {
      instructions: 'Be brief.',
      messages: [{ role: 'user' as const, content: 'How many paid orders are there?' }],
      tools: [],
    };
    expect(
      await estimateRequestTokens({ provider: 'openai.chat', modelId: 'gpt-4o' }, request),
    ).toEqual({
      tokens: 10,
      counter: 'o200k_base',
    });
    expect(
      await estimateRequestTokens(
        { provider: 'anthropic.messages', modelId: 'claude-haiku-4-5' },
        request,
      ),
    ).toEqual({ tokens: 11, counter: 'chars/4' });
  });
});
