/** Parallel tool calls: the model asks for three tools at once; they finish in another order. */
import { agent } from '@agent-trace/core';
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
  after,
} from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

export function build(change?: Change) {
  const weather = plantedTool(change, {
    name: 'weather',
    description: 'The weather of a city',
    input: z.object({ city: z.string() }),
    // Paris answers last: results come back out of call order.
    execute: ({ city }) => after(city === 'Paris' ? 30 : 5, `${city}: 21°C`),
  });
  const clock = plantedTool(change, {
    name: 'clock',
    description: 'The time in a time zone',
    input: z.object({ tz: z.string() }),
    execute: ({ tz }) => after(1, `12:00 ${tz}`),
  });
  return agent({
    name: 'desk',
    instructions: instructions(change, 'Answer with the tools, in parallel.'),
    model: script([
      {
        toolCalls: [
          { name: 'weather', args: { city: 'Paris' } },
          { name: 'weather', args: { city: 'Oslo' } },
          { name: 'clock', args: { tz: 'CET' } },
        ],
      },
      { text: 'Paris and Oslo are at 21°C; it is noon.' },
    ]),
    tools: plantedTools(change, 'clock', [weather, clock]),
  });
}

export const shape: Shape = {
  name: 'parallel tool calls',
  module: 'test/conformance/shapes/parallel-tools.ts',
  record: file => recordRun(file, build(), 'Weather in Paris and Oslo, and the time?'),
  build,
  changes: everyChange('desk', { changed: 'weather', removed: 'clock' }),
  fork: forkAnswering(1, 'Warm everywhere.'),
  holds: events =>
    expect(
      events.filter(e => e.event === 'tool_start').map(e => e.event === 'tool_start' && e.args),
    ).toHaveLength(3),
};

export default build();
