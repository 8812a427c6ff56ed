/**
 * Planning: a planner agent writes a workflow, the engine checks and runs it, a refused plan or
 * a failed step goes back to the planner, and the trace shows every plan and what each step did.
 */
import { fileURLToPath } from 'node:url';
import { agent, sequentialIds, steppingClock } from '@agent-trace/core';
import { planAndRun } from '@agent-trace/core/workflow';
import { compareGoldenTrace, fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

import { firstPlan, secondPlan, tools } from './sales-plans.js';

const directory = fileURLToPath(new URL('../../golden', import.meta.url));

async function plan(script: Parameters<typeof fakeLLM>[0], name: string) {
  const model = fakeLLM(script);
  const planner = agent({ name: 'planner', model, instructions: 'You plan work.' });
  const sink = memorySink();
  const result = await planAndRun(planner, 'Summarise the sales of week 47', {
    tools: tools(),
    trace: sink,
    clock: steppingClock(),
    ids: sequentialIds(),
    session: name,
  });
  expect(validateTrace(sink.events).problems).toEqual([]);
  return { result, events: sink.events, model };
}

describe('planAndRun', () => {
  it('re-plans once after a failed step, runs the new plan to completion, and traces both plans', async () => {
    const { result, events, model } = await plan(
      [{ text: firstPlan }, { text: secondPlan }],
      'plan-replanned',
    );
    expect(result.stopReason).toBe('completed');
    expect(result.output).toBe('Week 47: 1200 in sales.');
    expect(
      result.plans.map(plan => [plan.revision, plan.reason, plan.verdict, plan.status]),
    ).toEqual([
      [1, 'request', 'accepted', 'failed'],
      [2, 'step_failed', 'accepted', 'completed'],
    ]);
    expect(result.plans[0]?.steps?.map(step => [step.name, step.status])).toEqual([
      ['fetch', 'failed'],
      ['summary', 'skipped'],
    ]);
    // The planner was told the catalog first, then what failed and what it had.
    expect(model.calls[0]?.messages.at(-1)?.content).toContain(
      'fetch_sales: Fetch a week of sales',
    );
    const feedback = String(model.calls[1]?.messages.at(-1)?.content);
    expect(feedback).toContain("The plan failed at step 'fetch'");
    expect(feedback).toContain('warehouse is offline');
    // The trace: plan 1, its workflow (failed), plan 2, its workflow (completed).
    const outline = events
      .filter(event => ['plan', 'workflow_start', 'workflow_end'].includes(event.event))
      .map(event =>
        event.event === 'plan'
          ? `plan ${event.revision} ${event.verdict}`
          : event.event === 'workflow_end'
            ? `${event.workflow} ${event.status}`
            : `${event.event === 'workflow_start' ? event.workflow : ''} (plan ${event.event === 'workflow_start' ? event.plan_revision : ''})`,
      );
    expect(outline).toEqual([
      'plan 1 accepted',
      'weekly-sales (plan 1)',
      'weekly-sales failed',
      'plan 2 accepted',
      'weekly-sales-from-backup (plan 2)',
      'weekly-sales-from-backup completed',
    ]);
    const planEvent = events.find(event => event.event === 'plan');
    expect(planEvent?.event === 'plan' && planEvent.plan).toMatchObject({
      workflow: { name: 'weekly-sales' },
    });
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('plan-replanned', events, { directory }),
    );
  });

  it('refuses a plan that does not load, tells the planner where and why, and runs the corrected one', async () => {
    const misspelt = secondPlan.replace('tool: summarise', 'tool: summarize');
    const { result, events, model } = await plan(
      [{ text: misspelt }, { text: secondPlan }],
      'plan-refused',
    );
    expect(result.stopReason).toBe('completed');
    expect(result.plans.map(plan => [plan.verdict, plan.problems])).toEqual([
      [
        'refused',
        [
          "plan 1:8:13: unknown tool 'summarize' in step 'summary': the tools are fetch_sales, summarise",
        ],
      ],
      ['accepted', []],
    ]);
    expect(String(model.calls[1]?.messages.at(-1)?.content)).toContain(
      "Your plan was refused: plan 1:8:13: unknown tool 'summarize'",
    );
    expect(events.filter(event => event.event === 'workflow_start')).toHaveLength(1);
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('plan-refused', events, { directory }),
    );
  });

  it('stops with plan_refused when every plan is refused', async () => {
    const cyclic = secondPlan.replace('depends_on: [fetch]', 'depends_on: [summary]');
    const { result } = await plan(
      [{ text: 'no plan here' }, { text: cyclic }, { text: cyclic }],
      'x',
    );
    expect(result.stopReason).toBe('plan_refused');
    expect(result.plans).toHaveLength(3);
    expect(result.plans[0]?.problems[0]).toContain('plan 1:1:1:');
    expect(result.detail).toContain('the steps depend on each other in a cycle: summary → summary');
  });

  it('gives up after maxReplans and ends with the failed step', async () => {
    const { result } = await plan([{ text: firstPlan }, { text: firstPlan }], 'x');
    expect(result.stopReason).toBe('workflow_step_failed');
    expect(result.detail).toBe(
      "step 'fetch' failed: Tool 'fetch_sales' failed: warehouse is offline",
    );
    expect(result.plans).toHaveLength(2);
  });

  it('ends with the failed step, not plan_refused, when no plan is left to re-plan with', async () => {
    const planner = agent({ name: 'planner', model: fakeLLM([{ text: firstPlan }]) });
    const result = await planAndRun(planner, 'Summarise the sales of week 47', {
      tools: tools(),
      maxPlans: 1,
    });
    expect(result.stopReason).toBe('workflow_step_failed');
    expect(result.plans).toHaveLength(1);
  });
});
