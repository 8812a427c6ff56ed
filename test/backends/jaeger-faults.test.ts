/**
 * The Jaeger checks fail when they should: spans sent through a faulty exporter — one span
 * dropped, one parent wrong, one GenAI attribute renamed — reach the real Jaeger, and the check
 * names each fault; the same run sent as it was passes. So a passing backend test means the
 * backend holds what was sent.
 */
import { run, type TraceSink } from '@agent-trace/core';
import { semconv } from '@agent-trace/trace/otlp';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDesk } from '../fixtures/agents/small-desk.js';
import { exportShape } from './support/exported-shape.js';
import { startJaeger, type Jaeger } from './support/jaeger.js';
import { jaegerProblems, readJaegerTrace } from './support/jaeger-trace.js';

let jaeger: Jaeger;
beforeAll(async () => {
  jaeger = await startJaeger();
}, 600_000);
afterAll(() => jaeger?.stop());

type Fault = (spans: ReadableSpan[]) => ReadableSpan[];

/** An exporter to Jaeger that changes the spans on their way. */
function faulty(fault: Fault): SpanExporter {
  const exporter = new OTLPTraceExporter({ url: jaeger.otlpGrpc });
  return {
    export: (spans, done) => exporter.export(fault([...spans]), done),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
}

const record = (trace: readonly TraceSink[]) =>
  run(smallDesk(), 'Weather in Paris', { trace: [...trace] });

const faults: Array<{ name: string; fault: Fault; said: RegExp }> = [
  {
    name: 'a span dropped',
    fault: spans => spans.filter(span => !span.name.startsWith('execute_tool weather')),
    said: /^span execute_tool weather \([0-9a-f]{16}\) is missing$/,
  },
  {
    name: 'a parent wrong',
    // Each model call hangs under a span that is not its agent's.
    fault: spans =>
      spans.map(span =>
        span.name.startsWith('chat')
          ? { ...span, parentSpanContext: { ...span.spanContext(), spanId: 'ffffffffffffffff' } }
          : span,
      ),
    said: /^span chat fake-model \([0-9a-f]{16}\): its parent is f{16}, sent [0-9a-f]{16}$/,
  },
  {
    name: 'a GenAI attribute renamed',
    fault: spans =>
      spans.map(span => {
        const model = span.attributes[semconv.requestModel];
        if (model === undefined) return span;
        const attributes: Attributes = { ...span.attributes, 'renamed.request.model': model };
        delete attributes[semconv.requestModel];
        return { ...span, attributes };
      }),
    said: /: attribute gen_ai\.request\.model is missing$/,
  },
];

describe('the Jaeger check, broken on purpose', () => {
  it.each(faults)('names $name', async ({ fault, said }) => {
    const exported = await exportShape('fault', trace => record(trace), {
      exporter: faulty(fault),
    });
    const stored = await readJaegerTrace(
      jaeger.query,
      exported.traceId,
      exported.sent.length,
      3_000,
    );
    const problems = jaegerProblems(exported.sent, stored);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.some(problem => said.test(problem))).toBe(true);
  });

  it('and, restored, finds nothing', async () => {
    const exported = await exportShape('restored', trace => record(trace), {
      exporter: faulty(spans => spans),
    });
    const stored = await readJaegerTrace(jaeger.query, exported.traceId, exported.sent.length);
    expect(jaegerProblems(exported.sent, stored)).toEqual([]);
  });
});
