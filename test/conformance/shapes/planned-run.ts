/** A planned run: the planner writes a plan, a step fails, it replans, the second plan completes. */
import { agent } from '@agent-trace/core';
import { planAndRun } from '@agent-trace/core/workflow';
import { jsonlSink } from '@agent-trace/trace';
import { expect } from 'vitest';
import { firstPlan, secondPlan, tools } from '../../workflow/sales-plans.js';
import { instructions, script } from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

export function build(change?: Change) {
  return {
    planner: agent({
      name: 'planner',
      instructions: instructions(change, 'You plan work.'),
      model: script([{ text: firstPlan }, { text: secondPlan }]),
    }),
    tools: tools(),
  };
}

export const shape: Shape = {
  name: 'planned run (a failed step, a replan)',
  module: 'test/conformance/shapes/planned-run.ts',
  record: async file => {
    const sink = jsonlSink(file);
    const { planner, ...catalog } = build();
    const result = await planAndRun(planner, 'Summarise week 47 sales', {
      ...catalog,
      trace: sink,
    });
    await sink.close();
    expect(result.status).toBe('completed');
  },
  build,
  changes: { instructions: { agent: 'planner' } },
  fork: {
    afterStep: 1,
    model: () => script([{ text: secondPlan }]),
    expect: report => expect(report.result).toMatchObject({ status: 'completed' }),
  },
  holds: events => expect(events.filter(e => e.event === 'plan')).toHaveLength(2),
};

export default build();
