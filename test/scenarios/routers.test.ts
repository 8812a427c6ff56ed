import { agent, run, type TraceEvent } from '@agent-trace/core';
import { modelRouter, ruleRouter } from '@agent-trace/core/router';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

const handoffStart = (events: readonly TraceEvent[]) =>
  events.find(
    (event): event is Extract<TraceEvent, { event: 'handoff_start' }> =>
      event.event === 'handoff_start',
  );

function desk() {
  const billingModel = fakeLLM([{ text: 'Billing here.' }], { allowUnusedSteps: true });
  const techModel = fakeLLM([{ text: 'Tech here.' }], { allowUnusedSteps: true });
  const billing = agent({
    name: 'billing',
    description: 'Charges and refunds',
    model: billingModel,
  });
  const tech = agent({ name: 'tech', description: 'Errors and outages', model: techModel });
  return { billing, tech, billingModel, techModel };
}

describe('ruleRouter', () => {
  it('routes by the first matching rule without calling a model', async () => {
    const { billing, tech, billingModel } = desk();
    const router = ruleRouter(
      [
        [/refund|charge/i, 'billing'],
        ['error', 'tech'],
      ],
      { agents: [billing, tech] },
    );
    const sink = memorySink();
    const result = await run(router, 'I was charged twice', { trace: sink });
    expect(result).toMatchObject({
      stopReason: 'completed',
      agent: 'billing',
      output: 'Billing here.',
    });
    expect(billingModel.calls[0]!.messages).toEqual([
      { role: 'user', content: 'I was charged twice' },
    ]);
    expect(handoffStart(sink.events)).toMatchObject({
      from: 'router',
      to: 'billing',
      routed_by: 'rule',
      route_reason: 'rule /refund|charge/i matched',
    });
    expect(
      sink.events.filter(event => event.event === 'llm_start').map(event => event.agent),
    ).toEqual(['billing']);
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('uses the fallback agent when no rule matches, and ends with error when there is none', async () => {
    const { billing, tech } = desk();
    const withFallback = ruleRouter([['refund', 'billing']], {
      agents: [billing, tech],
      fallback: 'tech',
    });
    expect((await run(withFallback, 'hello')).agent).toBe('tech');
    const without = ruleRouter([['refund', 'billing']], { agents: [billing, tech], name: 'desk' });
    const result = await run(without, 'hello');
    expect(result.stopReason).toBe('error');
    expect(result.detail).toBe(
      "router 'desk' found no agent for the input: no rule matched and there is no fallback agent. Add a rule or a fallback.",
    );
  });
});

describe('modelRouter', () => {
  it('routes where the model says, describing the agents to it', async () => {
    const { billing, tech, techModel } = desk();
    const routerModel = fakeLLM([{ text: '{"agent": "tech"}' }], { modelId: 'router-mini' });
    const sink = memorySink();
    const result = await run(
      modelRouter({ model: routerModel, agents: [billing, tech] }),
      'The app shows error 500',
      { trace: sink },
    );
    expect(result.agent).toBe('tech');
    expect(techModel.calls).toHaveLength(1);
    expect(routerModel.calls[0]!.instructions).toContain(
      '- billing: Charges and refunds\n- tech: Errors and outages',
    );
    expect(routerModel.calls[0]!.toolNames).toEqual([]);
    expect(handoffStart(sink.events)).toMatchObject({
      routed_by: 'llm',
      route_reason: "the model chose 'tech'",
    });
    expect(validateTrace(sink.events).problems).toEqual([]);
  });

  it('falls back to the rules when the model’s JSON is bad', async () => {
    const { billing, tech } = desk();
    const sink = memorySink();
    const result = await run(
      modelRouter({
        model: fakeLLM([{ text: 'billing, I think' }]),
        agents: [billing, tech],
        rules: [['charged', 'billing']],
      }),
      'I was charged twice',
      { trace: sink },
    );
    expect(result.agent).toBe('billing');
    expect(handoffStart(sink.events)).toMatchObject({ routed_by: 'rule' });
    expect(handoffStart(sink.events)?.route_reason).toMatch(
      /^the model's answer was not \{"agent": …\} JSON \(.+\); rule charged matched$/,
    );
  });

  it('falls back when the model names an agent that does not exist', async () => {
    const { billing, tech } = desk();
    const sink = memorySink();
    const result = await run(
      modelRouter({
        model: fakeLLM([{ text: '{"agent":"sales"}' }]),
        agents: [billing, tech],
        fallback: 'billing',
      }),
      'hi',
      { trace: sink },
    );
    expect(result.agent).toBe('billing');
    expect(handoffStart(sink.events)?.route_reason).toBe(
      "the model named 'sales', which is not one of billing, tech; no rule matched",
    );
  });
});
