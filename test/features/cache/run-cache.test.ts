import { agent, run, type TraceEvent } from '@agent-trace/core';
import { memoryCache } from '@agent-trace/core/cache';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

/**
 * A desk that hands billing questions to a billing agent: two agents, two models. Scripted, or
 * with empty scripts (a call that reached one would fail the run).
 */
function desk(scripted = true) {
  const billingModel = fakeLLM(scripted ? [{ text: 'You were charged once.' }] : [], {
    modelId: 'billing-model',
  });
  const deskModel = fakeLLM(
    scripted ? [{ toolCalls: [{ name: 'transfer_to_billing', args: {} }] }] : [],
    { modelId: 'desk-model' },
  );
  const billing = agent({ name: 'billing', instructions: 'Answer billing.', model: billingModel });
  const front = agent({
    name: 'desk',
    instructions: 'Route.',
    model: deskModel,
    handoffs: [billing],
  });
  return { front, calls: () => deskModel.calls.length + billingModel.calls.length };
}

const llmEnds = (events: readonly TraceEvent[]) =>
  events.filter(
    (event): event is Extract<TraceEvent, { event: 'llm_end' }> => event.event === 'llm_end',
  );

describe('a run with a cache', () => {
  it('answers every agent of the run from it the second time: every call a hit, no model called', async () => {
    const cache = memoryCache();
    const first = desk();
    const recorded = memorySink();
    const answered = await run(first.front, 'Was I charged twice?', { cache, trace: recorded });
    expect(answered.output).toBe('You were charged once.');
    expect(first.calls()).toBe(2);
    expect(llmEnds(recorded.events).map(end => end.cache_hit)).toEqual([undefined, undefined]);

    const again = desk(false);
    const replayed = memorySink();
    const cached = await run(again.front, 'Was I charged twice?', {
      cache: { cache, mode: 'replay' },
      trace: replayed,
    });
    expect(cached.output).toBe('You were charged once.');
    expect(again.calls()).toBe(0);
    expect(llmEnds(replayed.events).map(end => end.cache_hit)).toEqual([true, true]);
  });

  it('in replay mode, a request the cache does not have fails the run and says so', async () => {
    const result = await run(desk(false).front, 'Something new', {
      cache: { cache: memoryCache(), mode: 'replay' },
    });
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toMatch(/No recorded answer for this request to .*desk-model/);
  });
});
