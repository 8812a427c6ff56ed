/** Streaming: the run is recorded through `stream()`, its answer in deltas. */
import { stream } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import { expect } from 'vitest';
import { build } from './native-tools.js';
import type { Shape } from '../harness/shape.js';

export const shape: Shape = {
  name: 'streaming',
  module: 'test/conformance/shapes/streaming.ts',
  record: async file => {
    const sink = jsonlSink(file);
    const chunks = stream(build(), 'Weather and time in Paris?', { trace: sink });
    let text = '';
    for await (const chunk of chunks) if (chunk.type === 'delta') text += chunk.data.text;
    expect(text).toBe('Sunny, 21°C, and it is noon.');
    await chunks.result;
    await sink.close();
  },
  build,
  changes: {
    instructions: { agent: 'desk' },
    'tool description': { agent: 'desk', tool: 'weather' },
    'tool removed': { agent: 'desk', tool: 'clock' },
    'tool output': { agent: 'desk', tool: 'weather' },
  },
  fork: {
    afterStep: 1,
    model: () => build().model,
    expect: report => expect(report.reproduced).toBe(true),
  },
};

export default build();
