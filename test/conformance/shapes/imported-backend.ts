/**
 * An imported trace as a backend answers it: the guardrail desk's run exported as GenAI spans
 * (content captured), its spans shuffled and every time set to one millisecond (Jaeger answers a
 * trace's spans in an order of its own, and a fast run's spans share their millisecond), then
 * imported with `agent-trace import`. Its guardrails' verdicts come back from span events.
 */
import { writeFileSync } from 'node:fs';
import { run } from '@agent-trace/core';
import { otlpSink } from '@agent-trace/trace/otlp';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { expect } from 'vitest';
import { cli } from '../../support/cli.js';
import type { Shape } from '../harness/shape.js';
import { build, shape as guardrails } from './guardrails.js';

/** The spans in a fixed shuffled order, every start, end and event at one millisecond. */
function asABackendAnswers(spans: readonly ReadableSpan[]): ReadableSpan[] {
  const at: [number, number] = [1_800_000_000, 0];
  return spans
    .map((span, index) => ({ span, key: (index * 7919) % 104_729 }))
    .sort((a, b) => a.key - b.key)
    .map(({ span }) => ({
      ...span,
      startTime: at,
      endTime: at,
      events: span.events.map(event => ({ ...event, time: at })),
    }));
}

export const shape: Shape = {
  ...guardrails,
  name: 'an imported trace as a backend answers it (the guardrail desk, its spans shuffled at one millisecond)',
  module: 'test/conformance/shapes/guardrails.ts',
  record: async file => {
    const exporter = new InMemorySpanExporter();
    const sink = otlpSink({ exporter, captureContent: true, serviceName: 'desk' });
    await run(build(), 'Refund 150 for order 12', { trace: sink });
    await sink.forceFlush();
    const spans = `${file}.otlp.json`;
    const answered = asABackendAnswers(exporter.getFinishedSpans());
    writeFileSync(spans, new TextDecoder().decode(JsonTraceSerializer.serializeRequest(answered)));
    await sink.shutdown();
    const imported = await cli(['import', spans, '--out', file]);
    expect(imported.code, imported.stderr).toBe(0);
  },
};
