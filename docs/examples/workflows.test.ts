// docs/guide/testing.md, "Testing workflows"
import { agent, virtualClock } from '@agent-trace/core';
import { planAndRun, runWorkflow, workflow } from '@agent-trace/core/workflow';
import { fakeLLM, fakeTool } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';

it('runs a workflow on fake tools: outputs, skips, and a valid trace', async () => {
  const fetchOrders = fakeTool('fetch_orders', {
    input: z.unknown(),
    respond: () => [
      { id: 1, total: 30 },
      { id: 2, total: 90 },
    ],
  });
  const flag = fakeTool<{ id: number; total: number }>('flag', {
    input: z.object({ id: z.number(), total: z.number() }),
    respond: ({ id, total }) => ({ id, flagged: total > 50 }),
  });
  const notify = fakeTool('notify', { input: z.unknown(), respond: () => 'sent' });
  const review = workflow({
    name: 'review',
    steps: [
      { name: 'fetch', tool: fetchOrders },
      { name: 'flag', tool: flag, dependsOn: ['fetch'], forEach: 'steps.fetch.output' },
      {
        name: 'notify',
        tool: notify,
        dependsOn: ['flag'],
        condition: 'steps.flag.output[1].flagged == true',
      },
    ],
  });
  const trace = memorySink();
  const result = await runWorkflow(review, null, { trace, clock: virtualClock() });
  expect(result.steps.map(step => [step.name, step.status])).toEqual([
    ['fetch', 'completed'],
    ['flag', 'completed'],
    ['notify', 'completed'],
  ]);
  expect(flag.calls.map(call => call.args)).toEqual([
    { id: 1, total: 30 },
    { id: 2, total: 90 },
  ]);
  expect(validateTrace(trace.events).problems).toEqual([]);
});

it('scripts a planner with FakeLLM: a refused plan is told back, the corrected one runs', async () => {
  const planner = agent({
    name: 'planner',
    model: fakeLLM([
      { text: 'workflow:\n  name: p\n  steps:\n    - name: a\n      tool: fetch_order\n' },
      { text: 'workflow:\n  name: p\n  steps:\n    - name: a\n      tool: fetch_orders\n' },
    ]),
  });
  const fetchOrders = fakeTool('fetch_orders', { input: z.unknown(), respond: () => [] });
  const result = await planAndRun(planner, 'List the orders', { tools: [fetchOrders] });
  expect(result.plans.map(plan => plan.verdict)).toEqual(['refused', 'accepted']);
  expect(result.plans[0]?.problems[0]).toBe(
    "plan 1:5:13: unknown tool 'fetch_order' in step 'a': the tools are fetch_orders",
  );
  expect(result.stopReason).toBe('completed');
});
