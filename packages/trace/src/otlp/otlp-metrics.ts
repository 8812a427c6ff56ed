import type { TraceEvent } from '@agent-trace/core';
import { OTLPMetricExporter as GrpcMetricExporter } from '@opentelemetry/exporter-metrics-otlp-grpc';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import { GenAiMetrics } from './genai-metrics.js';
import { bounded, httpSignalUrl, type OtlpSignalOptions } from './otlp-signal.js';
import { defined } from '@agent-trace/core/util';

/** Where and how {@link OtlpMetrics} sends. */
export interface OtlpMetricsOptions extends OtlpSignalOptions {
  /** How often the metrics are sent. */
  intervalMs: number;
  /** The exporter to use instead of the OTLP one. */
  exporter?: PushMetricExporter;
}

function otlpMetricExporter(options: OtlpMetricsOptions): PushMetricExporter {
  const { endpoint, protocol, headers, grpcMetadata, exportTimeoutMs } = options;
  if (endpoint === undefined) throw new Error('OtlpMetrics needs an endpoint or an exporter.');
  if (protocol === 'http')
    return new ProtoMetricExporter({
      url: httpSignalUrl(endpoint, 'metrics'),
      timeoutMillis: exportTimeoutMs,
      ...defined('headers', headers),
    });
  return new GrpcMetricExporter({
    url: endpoint,
    timeoutMillis: exportTimeoutMs,
    ...defined('metadata', grpcMetadata),
  });
}

/**
 * The GenAI metrics of {@link GenAiMetrics}, for those with no meter provider of their own: an SDK
 * `MeterProvider` of the sink's, whose `PeriodicExportingMetricReader` sends them over OTLP to
 * the sink's collector every `intervalMs` (and on flush and shutdown). Export failures go to
 * OpenTelemetry's error handler, never to the run.
 */
export class OtlpMetrics {
  readonly #provider: MeterProvider;
  readonly #recorder: GenAiMetrics;

  constructor(options: OtlpMetricsOptions) {
    const exporter = options.exporter ?? otlpMetricExporter(options);
    this.#provider = new MeterProvider({
      resource: options.resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter,
          exportIntervalMillis: options.intervalMs,
          // The reader refuses a deadline longer than its interval.
          exportTimeoutMillis: Math.min(options.exportTimeoutMs, options.intervalMs),
        }),
      ],
    });
    this.#recorder = new GenAiMetrics(this.#provider);
  }

  /** Records what an end event measures. */
  record(event: TraceEvent): void {
    this.#recorder.record(event);
  }

  /** Sends the metrics now, waiting at most until `deadline`. */
  flush(deadline: number): Promise<void> {
    return bounded(this.#provider.forceFlush(), deadline - Date.now());
  }

  /** Sends the metrics a last time and closes, waiting at most until `deadline`. */
  shutdown(deadline: number): Promise<void> {
    return bounded(this.#provider.shutdown(), deadline - Date.now());
  }
}
