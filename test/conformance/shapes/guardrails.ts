/**
 * Guardrails that warn and block: an input guardrail warns on an order number, a tool guardrail
 * blocks a refund over 100 (the model reads why and asks for less), an output guardrail allows.
 */
import { agent } from '@agent-trace/core';
import type { Guardrail } from '@agent-trace/core/guardrail';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  instructions,
  plantedTool,
  plantedTools,
  recordRun,
  script,
  everyChange,
  forkAnswering,
} from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

const mentionsOrder: Guardrail = {
  name: 'mentions_order',
  check: ({ text }) =>
    /order \d+/.test(text) ? { verdict: 'warn', reason: 'an order number' } : { verdict: 'allow' },
};
const refundCap: Guardrail = {
  name: 'refund_cap',
  check: ({ args }) =>
    (args as { amount?: number } | undefined)?.amount !== undefined &&
    (args as { amount: number }).amount > 100
      ? { verdict: 'block', reason: 'refunds over 100 need a manager' }
      : { verdict: 'allow' },
};

export function build(change?: Change) {
  const refund = plantedTool(change, {
    name: 'refund',
    description: 'Refunds an amount',
    input: z.object({ amount: z.number() }),
    execute: ({ amount }) => `refunded ${amount}`,
  });
  const escalate = plantedTool(change, {
    name: 'escalate',
    description: 'Escalates to a manager',
    input: z.object({}),
    execute: () => 'escalated',
  });
  return agent({
    name: 'desk',
    instructions: instructions(change, 'Refund what is asked, within the rules.'),
    model: script([
      { toolCalls: [{ name: 'refund', args: { amount: 150 } }] },
      { toolCalls: [{ name: 'refund', args: { amount: 100 } }] },
      { text: 'Refunded 100; the rest needs a manager.' },
    ]),
    tools: plantedTools(change, 'escalate', [refund, escalate]),
    guardrails: { input: [mentionsOrder], tool: [refundCap], output: [] },
  });
}

export const shape: Shape = {
  name: 'guardrail warn and block',
  module: 'test/conformance/shapes/guardrails.ts',
  record: file => recordRun(file, build(), 'Refund 150 for order 12'),
  build,
  changes: everyChange('desk', { changed: 'refund', removed: 'escalate' }),
  fork: forkAnswering(1, 'A manager will call.'),
  holds: events => {
    const verdicts = events.flatMap(e => (e.event === 'guardrail' ? [e.verdict] : []));
    expect(verdicts).toEqual(expect.arrayContaining(['warn', 'block']));
  },
};

export default build();
