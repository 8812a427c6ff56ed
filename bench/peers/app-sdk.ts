/**
 * The OpenTelemetry SDK an application has, as the loop benchmark gives it to the subjects that
 * emit through one: a tracer provider recording every span, a batch processor, and either an
 * exporter that takes every batch and keeps nothing (the export itself not measured) or the OTLP
 * gRPC exporter to a collector on 127.0.0.1. Like `NodeSDK`, it registers an AsyncLocalStorage
 * context manager, so spans started in a span's context really nest.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';

const discard: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
};

let contextManagerSet = false;

/**
 * A recording tracer provider whose spans are batched and dropped at export, or sent over
 * OTLP/gRPC to `otlpEndpoint`.
 */
export function appTracerProvider(otlpEndpoint?: string): TracerProvider {
  if (!contextManagerSet) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextManagerSet = true;
  }
  const exporter =
    otlpEndpoint === undefined ? discard : new OTLPTraceExporter({ url: otlpEndpoint });
  return new TracerProvider({
    spanProcessors: [new BatchSpanProcessor({ exporter, maxQueueSize: 100_000 })],
  });
}
