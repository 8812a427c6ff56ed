/** Native tools: an agent looks two things up, one after the other, then answers. */
import { agent } from '@agent-trace/core';
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

export function build(change?: Change) {
  const weather = plantedTool(change, {
    name: 'weather',
    description: 'The weather of a city',
    input: z.object({ city: z.string() }),
    execute: ({ city }) => `${city}: 21°C, sunny`,
  });
  const clock = plantedTool(change, {
    name: 'clock',
    description: 'The time in a time zone',
    input: z.object({ tz: z.string() }),
    execute: ({ tz }) => `12:00 ${tz}`,
  });
  return agent({
    name: 'desk',
    instructions: instructions(change, 'Answer with the tools.'),
    model: script([
      { toolCalls: [{ name: 'weather', args: { city: 'Paris' } }] },
      { toolCalls: [{ name: 'clock', args: { tz: 'CET' } }] },
      { text: 'Sunny, 21°C, and it is noon.' },
    ]),
    tools: plantedTools(change, 'clock', [weather, clock]),
  });
}

export const shape: Shape = {
  name: 'native tools',
  module: 'test/conformance/shapes/native-tools.ts',
  record: file => recordRun(file, build(), 'Weather and time in Paris?'),
  build,
  changes: everyChange('desk', { changed: 'weather', removed: 'clock' }),
  fork: forkAnswering(1, 'Sunny.'),
};

export default build();
