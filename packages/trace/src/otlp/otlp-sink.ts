import {
  ConfigurationError,
  type Evaluation,
  type SinkHealth,
  type TraceEvent,
  type TraceSink,
  traceSinkVersion,
} from '@agent-trace/core';
import { Metadata } from '@grpc/grpc-js';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { SEMRESATTRS_PROJECT_NAME } from '@arizeai/openinference-semantic-conventions';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { ExportPipeline } from './export-pipeline.js';
import { OtlpMetrics } from './otlp-metrics.js';
import { contentCaptureFromEnvironment } from './content-capture.js';
import { SpanBuilder } from './span-builder.js';
import { defined } from '@agent-trace/core/util';
import type { LogRecordExporter } from '@opentelemetry/sdk-logs';
import { OtlpEvaluations } from './evaluation-logs.js';
import { judgmentEvaluation } from './judgment-evaluation.js';
import { openInferenceFromEnvironment } from './open-inference.js';

/** Options of {@link otlpSink}. */
export interface OtlpSinkOptions {
  /**
   * The collector: `http://127.0.0.1:4317` for gRPC, `http://127.0.0.1:4318` for HTTP.
   * @defaultValue `TRACE_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, then `OTEL_EXPORTER_OTLP_ENDPOINT`
   */
  endpoint?: string;
  /**
   * OTLP over gRPC, or over HTTP with protobuf bodies.
   * @defaultValue from `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` / `OTEL_EXPORTER_OTLP_PROTOCOL` (`grpc`, `http/protobuf`), else 'grpc'
   */
  protocol?: 'grpc' | 'http';
  /** Sent with every export: HTTP headers, or gRPC metadata (an `authorization` key, …). */
  headers?: Record<string, string>;
  /** `service.name` of the resource. @defaultValue `OTEL_SERVICE_NAME`, else 'agent-trace' */
  serviceName?: string;
  /**
   * Record message content, tool arguments and results on spans (opt-in, as the conventions ask).
   * @defaultValue true when `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` is `true` or `SPAN_ONLY` / `SPAN_AND_EVENT`
   */
  captureContent?: boolean;
  /**
   * Also write the OpenInference attributes (`openinference.span.kind`, `input.value`,
   * `llm.token_count.prompt`, …) that Arize Phoenix reads to show agent, LLM and tool spans with
   * their inputs, outputs and tokens, and file them under the project named `serviceName`. The
   * GenAI attributes stay. @defaultValue true when `TRACE_OTLP_OPENINFERENCE` is `true`, else false
   */
  openInference?: boolean;
  /** The most characters of one content attribute; longer ones are cut with a marker. @defaultValue 65536 */
  maxAttributeLength?: number;
  /**
   * Wait at the end of every run until the collector has confirmed the run's spans (at most
   * `flushTimeoutMs`), so `run_end.export` holds final counts: for tests and scripts. Off, a run
   * hands its spans to the exporter and returns at once, and `run_end.export` counts what has
   * failed so far and what is still in flight (`pending_spans`). @defaultValue false
   */
  awaitAtRunEnd?: boolean;
  /** Longest wait for the collector: at a run's end with `awaitAtRunEnd`, in `forceFlush` and `shutdown`. @defaultValue 2000 */
  flushTimeoutMs?: number;
  /** Deadline of one export request. @defaultValue 1500 */
  exportTimeoutMs?: number;
  /** Spans waiting to be sent; past it, new spans are dropped (and counted). @defaultValue 2048 */
  maxQueueSize?: number;
  /** @defaultValue 512 */
  maxBatchSpans?: number;
  /** A batch's estimated size, under Jaeger's 4 MiB gRPC limit. @defaultValue 3.5 MiB */
  maxBatchBytes?: number;
  /** How long a span may wait for a batch to fill. @defaultValue 500 */
  batchDelayMs?: number;
  /**
   * Export requests in flight at once; the rest of the spans wait in the queue and go out in the
   * next batches. @defaultValue 2
   */
  maxConcurrentExports?: number;
  /** The exporter to use instead of the OTLP one (tests, other backends). */
  exporter?: SpanExporter;
  /**
   * Send the GenAI metrics too (`gen_ai.client.operation.duration`, `gen_ai.client.token.usage`,
   * `agent_trace.tool.duration`, `agent_trace.runs`: see `GenAiMetrics`) to the same collector,
   * through a meter provider of the sink's own: for services with no OpenTelemetry SDK (those
   * with one use `otelSink`). Sent every `metricsIntervalMs`, on `forceFlush` and on `shutdown`.
   * @defaultValue true (when there is an endpoint or a `metricExporter`)
   */
  metrics?: boolean;
  /** How often the metrics are sent. @defaultValue `OTEL_METRIC_EXPORT_INTERVAL`, else 60000 */
  metricsIntervalMs?: number;
  /** The metric exporter to use instead of the OTLP one (tests, other backends). */
  metricExporter?: PushMetricExporter;
  /**
   * The exporter of evaluation events (an eval's scores, `gen_ai.evaluation.result` log records)
   * instead of the OTLP one to the same collector.
   */
  logExporter?: LogRecordExporter;
}

/** What the sink has done so far. */
export interface OtlpSinkStats {
  exported: number;
  failed: number;
  dropped: number;
  /** Content attributes cut to `maxAttributeLength`. */
  truncated: number;
  /** Why the last export request that failed did (the exporter's error, or no answer in time). */
  lastFailure?: string;
  /** True while the last request answered for failed: the collector is not taking spans now. */
  failing: boolean;
}

/** A sink exporting spans and metrics over OTLP: see {@link otlpSink}. */
export interface OtlpSink extends TraceSink {
  readonly stats: Readonly<OtlpSinkStats>;
  /**
   * Sends the queued spans and the metrics, and waits (at most `flushTimeoutMs`) for the collector
   * to confirm them.
   */
  forceFlush(): Promise<void>;
  /**
   * Sends what is left, the metrics a last time, and closes the exporters, all within `withinMs`
   * (default `flushTimeoutMs`): what the collector has not taken by then is given up on. Spans
   * whose end never came (a torn trace) are sent ended at the last event, with `error.type`
   * `unfinished`. Afterwards every span is counted exported, failed or dropped.
   */
  shutdown(withinMs?: number): Promise<void>;
}

/** The OTLP endpoint in the environment, if any (`TRACE_OTLP_ENDPOINT` first). */
export function otlpEndpointFromEnvironment(
  environment: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const endpoint =
    environment.TRACE_OTLP_ENDPOINT ??
    environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    environment.OTEL_EXPORTER_OTLP_ENDPOINT;
  return endpoint === undefined || endpoint === '' ? undefined : endpoint;
}

/** The OTLP protocol the standard environment variables ask for, if any. */
export function otlpProtocolFromEnvironment(
  environment: NodeJS.ProcessEnv = process.env,
): 'grpc' | 'http' | undefined {
  const value =
    environment.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? environment.OTEL_EXPORTER_OTLP_PROTOCOL;
  if (value === undefined || value === '') return undefined;
  if (value === 'grpc') return 'grpc';
  if (value === 'http/protobuf') return 'http';
  throw new ConfigurationError({
    option: 'protocol',
    message: `OTEL_EXPORTER_OTLP_PROTOCOL is '${value}', which agent-trace does not speak: use grpc or http/protobuf.`,
  });
}

function grpcMetadata(headers: Record<string, string> | undefined): Metadata | undefined {
  if (headers === undefined) return undefined;
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(headers)) metadata.set(key.toLowerCase(), value);
  return metadata;
}

/** An OTLP sink configured from the environment, or undefined when no endpoint is set. */
export function otlpSinkFromEnvironment(
  options: Omit<OtlpSinkOptions, 'endpoint'> = {},
): OtlpSink | undefined {
  const endpoint = otlpEndpointFromEnvironment();
  return endpoint === undefined ? undefined : otlpSink({ ...options, endpoint });
}

function otlpExporter(
  endpoint: string,
  protocol: 'grpc' | 'http',
  options: OtlpSinkOptions,
  exportTimeoutMs: number,
): SpanExporter {
  if (protocol === 'http')
    return new ProtoTraceExporter({
      url: `${endpoint.replace(/\/$/, '')}${endpoint.endsWith('/v1/traces') ? '' : '/v1/traces'}`,
      timeoutMillis: exportTimeoutMs,
      ...defined('headers', options.headers),
    });
  return new GrpcTraceExporter({
    url: endpoint,
    timeoutMillis: exportTimeoutMs,
    ...(options.headers === undefined ? {} : { metadata: grpcMetadata(options.headers) }),
  });
}

/** The sink's metrics, unless turned off or there is nowhere to send them. */
function sinkMetrics(
  options: OtlpSinkOptions,
  where: {
    endpoint: string | undefined;
    protocol: 'grpc' | 'http';
    resource: Resource;
    exportTimeoutMs: number;
  },
): OtlpMetrics | undefined {
  if (options.metrics === false) return undefined;
  if (options.metricExporter === undefined && where.endpoint === undefined) return undefined;
  const fromEnvironment = Number(process.env.OTEL_METRIC_EXPORT_INTERVAL);
  return new OtlpMetrics({
    ...where,
    ...(options.headers === undefined
      ? {}
      : { headers: options.headers, grpcMetadata: grpcMetadata(options.headers) }),
    intervalMs: options.metricsIntervalMs ?? (fromEnvironment > 0 ? fromEnvironment : 60_000),
    ...defined('exporter', options.metricExporter),
  });
}

/** What an OTLP sink is made of: its span builder, its metrics, its export pipeline, its timing. */
function sinkParts(options: OtlpSinkOptions): {
  builder: SpanBuilder;
  metrics: ReturnType<typeof sinkMetrics>;
  evaluations: OtlpEvaluations | undefined;
  pipeline: ExportPipeline;
  awaitAtRunEnd: boolean;
  flushTimeoutMs: number;
} {
  const environment = process.env;
  const endpoint = options.endpoint ?? otlpEndpointFromEnvironment(environment);
  if (endpoint === undefined && options.exporter === undefined) {
    throw new ConfigurationError({
      option: 'endpoint',
      message:
        'otlpSink needs a collector endpoint: pass otlpSink({ endpoint: "http://127.0.0.1:4317" }) or set TRACE_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT.',
    });
  }
  const {
    protocol = otlpProtocolFromEnvironment(environment) ?? 'grpc',
    awaitAtRunEnd = false,
    flushTimeoutMs = 2000,
    exportTimeoutMs = 1500,
    maxQueueSize = 2048,
    maxBatchSpans = 512,
    maxBatchBytes = 3.5 * 1024 * 1024,
    batchDelayMs = 500,
    maxConcurrentExports = 2,
  } = options;
  const serviceName = options.serviceName ?? environment.OTEL_SERVICE_NAME ?? 'agent-trace';
  const openInference = options.openInference ?? openInferenceFromEnvironment(environment);
  const resource = resourceFromAttributes({
    'service.name': serviceName,
    // Phoenix files the spans under the project this names.
    ...(openInference ? { [SEMRESATTRS_PROJECT_NAME]: serviceName } : {}),
  });
  const builder = new SpanBuilder({
    captureContent: options.captureContent ?? contentCaptureFromEnvironment(environment),
    maxAttributeLength: options.maxAttributeLength ?? 65_536,
    resource,
    openInference,
  });
  const metrics = sinkMetrics(options, { endpoint, protocol, resource, exportTimeoutMs });
  const pipeline = new ExportPipeline(
    options.exporter ?? otlpExporter(endpoint as string, protocol, options, exportTimeoutMs),
    {
      maxQueueSize,
      maxBatchSpans,
      maxBatchBytes,
      batchDelayMs,
      exportTimeoutMs,
      maxConcurrentExports,
    },
  );
  const evaluations =
    endpoint === undefined && options.logExporter === undefined
      ? undefined
      : new OtlpEvaluations({
          ...defined('endpoint', endpoint),
          protocol,
          ...defined('headers', options.headers),
          ...(options.headers === undefined ? {} : { grpcMetadata: grpcMetadata(options.headers) }),
          resource,
          exportTimeoutMs,
          ...defined('exporter', options.logExporter),
        });
  return { builder, metrics, evaluations, pipeline, awaitAtRunEnd, flushTimeoutMs };
}

/**
 * Exports a run's agents, model calls, tool calls and handoffs as OpenTelemetry spans (GenAI
 * semantic conventions) over OTLP/gRPC (or HTTP/protobuf), to Jaeger or any collector. Works
 * beside `jsonlSink`, which stays the source of truth: export is best effort. A collector that is
 * down, slow or refusing never fails a run nor slows it: spans are sent in the background (with
 * `awaitAtRunEnd`, a run waits at most `flushTimeoutMs` at its end for confirmation). Dropped and
 * failed spans are counted, reported in `run_end.export` and in `stats`. Spans are batched by
 * OpenTelemetry's own `BatchSpanProcessor`; the GenAI metrics go to the same collector (see
 * `metrics`). Call `shutdown()` before the process ends.
 *
 * @example
 * ```ts
 * const otlp = otlpSink({ endpoint: 'http://127.0.0.1:4317' });
 * await run(desk, input, { trace: [jsonlSink('traces/run.jsonl'), otlp] });
 * await otlp.shutdown();
 * ```
 */
export function otlpSink(options: OtlpSinkOptions = {}): OtlpSink {
  const { builder, metrics, evaluations, pipeline, awaitAtRunEnd, flushTimeoutMs } =
    sinkParts(options);
  let closed = false;
  const currentStats = (): OtlpSinkStats => ({
    ...pipeline.counts(),
    truncated: builder.truncated,
    failing: pipeline.failing,
    ...defined('lastFailure', pipeline.lastFailure),
  });

  /** When each sealing run's end-of-run budget runs out (its `beforeSeal` started it). */
  const sealDeadlines = new Map<string, number>();
  /** The budget left for the next `flush`: that of the run whose `run_end` came last. */
  let flushDeadline: number | undefined;

  return {
    version: traceSinkVersion,
    get stats(): Readonly<OtlpSinkStats> {
      return currentStats();
    },
    write(event: TraceEvent) {
      if (closed) return;
      if (event.event === 'feedback' || event.event === 'evaluation') {
        evaluations?.emit([judgmentEvaluation(event)]);
        return;
      }
      if (event.event === 'run_end') {
        flushDeadline = sealDeadlines.get(event.run);
        sealDeadlines.delete(event.run);
      }
      metrics?.record(event);
      const span = builder.accept(event);
      if (span !== undefined) pipeline.add(span);
    },
    // With awaitAtRunEnd, the run waits for its spans once before its seal and once after it
    // (for the run's own span); both together stay within one flushTimeoutMs. Without, a run's
    // end only sends what is queued.
    flush() {
      const deadline = flushDeadline;
      flushDeadline = undefined;
      if (!awaitAtRunEnd) {
        pipeline.sendQueued();
        return Promise.resolve();
      }
      return pipeline.drain(deadline ?? Date.now() + flushTimeoutMs);
    },
    evaluated(judged: readonly Evaluation[]) {
      if (closed) return;
      try {
        evaluations?.emit(judged);
      } catch {
        // Export never fails what asked for it.
      }
    },
    async forceFlush() {
      const deadline = Date.now() + flushTimeoutMs;
      await Promise.all([pipeline.drain(deadline), metrics?.flush(deadline)]);
    },
    async beforeSeal(runId: string): Promise<SinkHealth> {
      if (awaitAtRunEnd) {
        const deadline = Date.now() + flushTimeoutMs;
        sealDeadlines.set(runId, deadline);
        await pipeline.drain(deadline);
      } else await pipeline.nudge();
      const { failed, dropped } = currentStats();
      return { dropped, failed, pending: pipeline.pending() };
    },
    async shutdown(withinMs = flushTimeoutMs) {
      for (const span of builder.unfinished()) pipeline.add(span);
      closed = true;
      const deadline = Date.now() + withinMs;
      // All of it within `withinMs`: what the collector has not taken by then is given up on.
      await Promise.all([
        pipeline.shutdown(deadline),
        metrics?.shutdown(deadline),
        evaluations?.shutdown(deadline),
      ]);
    },
  };
}
