/**
 * The OpenTelemetry SDK an application has, as the loop benchmark gives it to the subjects that
 * emit through one: a tracer provider recording every span, a batch processor, and an exporter
 * that takes every batch and keeps nothing (the export itself is not measured).
 */
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';

const discard: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
};

/** A recording tracer provider whose spans are batched and dropped at export. */
export function appTracerProvider(): TracerProvider {
  return new TracerProvider({
    spanProcessors: [new BatchSpanProcessor({ exporter: discard, maxQueueSize: 100_000 })],
  });
}
