/** Streaming: the native desk's run recorded through `stream()`, its answer in deltas. */
import { stream } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import { expect } from 'vitest';
import type { Shape } from '../harness/shape.js';
import { build, shape as nativeTools } from './native-tools.js';

export const shape: Shape = {
  ...nativeTools,
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
};

export default build();
