/** Several runs in one file: a program records three questions into one trace. */
import { expect } from 'vitest';
import { build } from './native-tools.js';
import { recordRun, forkAnswering } from '../harness/plant.js';
import type { Shape } from '../harness/shape.js';

export const shape: Shape = {
  name: 'several runs in one file',
  module: 'test/conformance/shapes/several-runs.ts',
  record: async file => {
    await recordRun(file, build(), 'Weather and time in Paris?');
    await recordRun(file, build(), 'And in Lyon?');
    await recordRun(file, build(), 'And in Nice?');
  },
  build,
  runs: 3,
  changes: {
    instructions: { agent: 'desk' },
    'tool output': { agent: 'desk', tool: 'weather' },
  },
  fork: forkAnswering(1, 'Sunny.'),
  holds: events => expect(events.filter(e => e.event === 'run_start')).toHaveLength(3),
};

export default build();
