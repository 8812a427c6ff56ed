// docs/guide/testing.md, "Testing an agent with fakes"
import { agent, run, steppingClock } from '@agent-trace/core';
import { fakeLLM, fakeTool } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { supportDesk } from './support-agent.js';

describe('support desk, with fakes', () => {
  it('looks the order up, then hands the refund to billing', async () => {
    const support = fakeLLM([
      { toolCalls: [{ name: 'lookup_order', args: { orderId: 7 } }] },
      { toolCalls: [{ name: 'transfer_to_billing' }] },
    ]);
    const billing = fakeLLM([{ text: 'Refunded 42 EUR.' }]);
    const trace = memorySink();

    const result = await run(supportDesk({ support, billing }), 'Refund order 7', { trace });

    expect(result.output).toBe('Refunded 42 EUR.');
    expect(trace).toHaveCalledTool('lookup_order', { orderId: 7 });
    expect(trace).toHaveToolSequence(['lookup_order'], { mode: 'strict' });
    expect(trace).toHaveHandedOffTo('billing', { from: 'support' });
    expect(trace).toHaveStopReason('completed');
    expect(trace).toHaveNoErrors();
    expect(trace).toBeWellFormedTrace();
    expect(billing.lastCall?.messages.at(0)).toEqual({ role: 'user', content: 'Refund order 7' });
  });

  it('survives a failing tool and a rate limit', async () => {
    const refunds = fakeTool('refund', {
      steps: [{ error: 'payment provider down' }, { result: 'refund r-1' }],
    });
    const model = fakeLLM([
      { error: { status: 429, retryAfterMs: 1000 } },
      { toolCalls: [{ name: 'refund', args: { orderId: 7 } }] },
      { text: 'Refund r-1 is on its way.' },
    ]);
    const result = await run(
      agent({ name: 'billing', model, tools: [refunds] }),
      'Refund order 7',
      {
        clock: steppingClock(), // the 1 s retry-after and the tool retry take no real time
      },
    );
    expect(result).toHaveStopReason('completed');
    expect(refunds).toHaveCalledToolTimes('refund', 2);
  });
});
