// docs/guide/caching.md: one model behind a cache, and one cache for every model of a run.
import { agent, run, tool } from '@agent-trace/core';
import { cachedModel, memoryCache } from '@agent-trace/core/cache';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';

const lookup = tool({
  name: 'lookup',
  description: 'Looks an order up',
  input: z.object({ order: z.number() }),
  execute: ({ order }) => ({ order, status: 'paid' }),
});

it('answers the second run of the same question from the cache', async () => {
  const model = fakeLLM([
    { toolCalls: [{ name: 'lookup', args: { order: 42 } }] },
    { text: 'Order 42 is paid.' },
  ]);

  const cache = memoryCache({ maxEntries: 1000 });
  const desk = agent({ name: 'desk', model: cachedModel(model, { cache }), tools: [lookup] });
  await run(desk, 'Order 42?'); // asks the model, stores its answers
  const again = await run(desk, 'Order 42?'); // every answer from the cache: cache_hit, $0

  expect(model.calls).toHaveLength(2);
  expect(again.output).toBe('Order 42 is paid.');
});

it('puts one cache in front of every model of a multi-agent run', async () => {
  const cache = memoryCache();
  const triageWith = (scripted: boolean) =>
    agent({
      name: 'triage',
      model: fakeLLM(scripted ? [{ toolCalls: [{ name: 'transfer_to_billing' }] }] : []),
      handoffs: [
        agent({
          name: 'billing',
          model: fakeLLM(scripted ? [{ text: 'Charged once.' }] : [], { modelId: 'billing' }),
        }),
      ],
    });
  await run(triageWith(true), 'Was I charged twice?', { cache });
  const triage = triageWith(false); // models with empty scripts: only the cache can answer
  const trace = memorySink();

  const replayed = await run(triage, 'Was I charged twice?', {
    cache: { cache, mode: 'replay' }, // or just `cache` for `auto`
  });

  expect(replayed.output).toBe('Charged once.');
  const again = await run(triage, 'Was I charged twice?', { cache, trace });
  expect(again.output).toBe('Charged once.');
  expect(
    trace.events.filter(event => event.event === 'llm_end').map(event => event.cache_hit),
  ).toEqual([true, true]);
});
