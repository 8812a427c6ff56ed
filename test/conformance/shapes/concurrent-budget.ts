/**
 * State that outlives a run, changed by runs going on at once: eight shoppers run side by side
 * into one trace, sharing one daily budget and one provider rate limit. Each spends the budget
 * between the others' calls, so what a run found spent at each of its decisions is what the others
 * had spent by then; the budget stops some of them. A rerun of each run decides on what it read.
 */
import { run, virtualClock } from '@agent-trace/core';
import { costBudget } from '@agent-trace/core/cost';
import { rateLimits } from '@agent-trace/core/rate-limit';
import { jsonlSink } from '@agent-trace/trace';
import { expect } from 'vitest';
import type { Shape } from '../harness/shape.js';
import { build, prices, shape as budgetStop } from './budget-stop.js';

/** How many shoppers run at once. */
const shoppers = 8;

export const shape: Shape = {
  ...budgetStop,
  name: 'concurrent runs sharing a budget and a rate limit',
  module: 'test/conformance/shapes/concurrent-budget.ts',
  record: async file => {
    const trace = jsonlSink(file);
    const daily = costBudget({ name: 'daily', limitUsd: 5 });
    const limits = rateLimits({ fake: { requestsPerMinute: 6 } });
    const clock = virtualClock();
    try {
      await Promise.all(
        Array.from({ length: shoppers }, (_, index) =>
          run(build(), `Cheapest lamp in shop ${index + 1}?`, {
            trace,
            prices,
            budget: daily,
            rateLimits: limits,
            clock,
          }),
        ),
      );
    } finally {
      await trace.close();
    }
  },
  runs: shoppers,
  holds: events => {
    const stops = events.flatMap(e => (e.event === 'run_end' ? [e.stop_reason] : []));
    expect(stops).toContain('budget_exceeded');
    expect(stops).toContain('completed');
  },
};

export default build();
export const runOptions = budgetStop.runOptions;
