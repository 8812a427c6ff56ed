/**
 * An imported OTLP trace: the native desk's run exported as GenAI spans (content captured), kept
 * as the Collector's file exporter writes them, and imported with `agent-trace import`.
 */
import { writeFileSync } from 'node:fs';
import { run } from '@agent-trace/core';
import { otlpSink } from '@agent-trace/trace/otlp';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { expect } from 'vitest';
import { cli } from '../../support/cli.js';
import type { Shape } from '../harness/shape.js';
import { build, shape as nativeTools } from './native-tools.js';

export const shape: Shape = {
  ...nativeTools,
  name: 'an imported OTLP trace (the native desk, exported and imported)',
  module: 'test/conformance/shapes/native-tools.ts',
  record: async file => {
    const exporter = new InMemorySpanExporter();
    const sink = otlpSink({ exporter, captureContent: true, serviceName: 'desk' });
    await run(build(), 'Weather and time in Paris?', { trace: sink });
    await sink.forceFlush();
    const spans = `${file}.otlp.json`;
    writeFileSync(
      spans,
      new TextDecoder().decode(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())),
    );
    await sink.shutdown();
    const imported = await cli(['import', spans, '--out', file]);
    expect(imported.code, imported.stderr).toBe(0);
  },
};
