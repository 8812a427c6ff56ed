/**
 * Budget and rate-limit stops: a priced model under a run budget that stops the run after its
 * second answer, its calls held back by a rate limit on the way.
 */
import { agent, virtualClock } from '@agent-trace/core';
import { costBudget } from '@agent-trace/core/cost';
import { rateLimits } from '@agent-trace/core/rate-limit';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  instructions,
  plantedTool,
  plantedTools,
  recordRun,
  script,
  everyChange,
} from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

/** What the fake model costs: a dollar per thousand tokens in, ten out. */
export const prices = {
  'fake:gpt-4o': {
    inputPerMillion: 1_000,
    outputPerMillion: 10_000,
    source: 'the conformance matrix',
    asOf: '2026-11-26',
  },
};

export function build(change?: Change) {
  const search = plantedTool(change, {
    name: 'search',
    description: 'Searches the catalogue',
    input: z.object({ query: z.string() }),
    execute: ({ query }) => `12 results for ${query}`,
  });
  const compare = plantedTool(change, {
    name: 'compare',
    description: 'Compares two products',
    input: z.object({ a: z.string(), b: z.string() }),
    execute: () => 'a is cheaper',
  });
  return agent({
    name: 'shopper',
    instructions: instructions(change, 'Find the cheapest lamp.'),
    model: script(
      [
        {
          toolCalls: [{ name: 'search', args: { query: 'lamp' } }],
          usage: { promptTokens: 100, completionTokens: 20 },
        },
        {
          toolCalls: [{ name: 'search', args: { query: 'desk lamp' } }],
          usage: { promptTokens: 150, completionTokens: 20 },
        },
        {
          text: 'The cheapest lamp is 12 euros.',
          usage: { promptTokens: 200, completionTokens: 20 },
        },
      ],
      { modelId: 'gpt-4o' },
    ),
    tools: plantedTools(change, 'compare', [search, compare]),
  });
}

/** What the application runs the shopper with beyond its limits: the prices (the CLI reads this export). */
export const runOptions = { prices };

export const shape: Shape = {
  name: 'budget stop, behind a rate limit',
  module: 'test/conformance/shapes/budget-stop.ts',
  record: file =>
    recordRun(file, build(), 'Cheapest lamp?', {
      prices,
      maxCostUsd: 0.5,
      clock: virtualClock(),
      rateLimits: rateLimits({ fake: { requestsPerMinute: 1 } }),
    }),
  build,
  runOptions,
  changes: everyChange('shopper', { changed: 'search', removed: 'compare' }),
  holds: events => {
    expect(events.findLast(e => e.event === 'run_end')).toMatchObject({
      stop_reason: 'budget_exceeded',
    });
    expect(events.some(e => e.event === 'rate_limit_wait')).toBe(true);
  },
};

export default build();

/** A shared daily budget, partly spent by earlier runs, stops this one. */
export const sharedBudget: Shape = {
  ...shape,
  name: 'shared budget stop (spent by earlier runs)',
  record: file => {
    const daily = costBudget({ name: 'daily', limitUsd: 0.75 });
    daily.spend(0.4);
    return recordRun(file, build(), 'Cheapest lamp?', { prices, budget: daily });
  },
  holds: events =>
    expect(events.findLast(e => e.event === 'run_end')).toMatchObject({
      stop_reason: 'budget_exceeded',
      limit: { name: 'daily' },
    }),
};
