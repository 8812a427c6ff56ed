import {
  ConfigurationError,
  type SinkHealth,
  type TraceEvent,
  type TraceSink,
} from '@agent-trace/core';
import { Metadata } from '@grpc/grpc-js';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { contentCaptureFromEnvironment } from './content-capture.js';
import { SpanBuilder } from './span-builder.js';

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
}

/** What the sink has done so far. */
export interface OtlpSinkStats {
  exported: number;
  failed: number;
  dropped: number;
  /** Content attributes cut to `maxAttributeLength`. */
  truncated: number;
}

/** A sink exporting spans over OTLP: see {@link otlpSink}. */
export interface OtlpSink extends TraceSink {
  readonly stats: Readonly<OtlpSinkStats>;
  /** Sends what is queued and waits (at most `flushTimeoutMs`) for the collector to confirm it. */
  forceFlush(): Promise<void>;
  /**
   * Sends what is left (bounded) and closes the exporter. Spans whose end never came (a torn
   * trace) are sent ended at the last event, with `error.type` `unfinished`.
   */
  shutdown(): Promise<void>;
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

function newSignal(): { promise: Promise<void>; fire: () => void } {
  let fire = (): void => undefined;
  const promise = new Promise<void>(resolve => (fire = resolve));
  return { promise, fire };
}

function estimateBytes(span: ReadableSpan): number {
  let bytes = 200 + span.name.length;
  for (const [key, value] of Object.entries(span.attributes))
    bytes += key.length + (typeof value === 'string' ? value.length : 16);
  return bytes;
}

/**
 * Exports a run's agents, model calls, tool calls and handoffs as OpenTelemetry spans (GenAI
 * semantic conventions) over OTLP/gRPC (or HTTP/protobuf), to Jaeger or any collector. Works
 * beside `jsonlSink`, which stays the source of truth: export is best effort. A collector that is
 * down, slow or refusing never fails a run nor slows it: spans are sent in the background (with
 * `awaitAtRunEnd`, a run waits at most `flushTimeoutMs` at its end for confirmation). Dropped and
 * failed spans are counted, reported in `run_end.export` and in `stats`. Call `shutdown()` before
 * the process ends.
 *
 * @example
 * ```ts
 * const otlp = otlpSink({ endpoint: 'http://127.0.0.1:4317' });
 * await run(desk, input, { trace: [jsonlSink('traces/run.jsonl'), otlp] });
 * await otlp.shutdown();
 * ```
 */
export function otlpSink(options: OtlpSinkOptions = {}): OtlpSink {
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
  const exporter =
    options.exporter ??
    (protocol === 'http'
      ? new ProtoTraceExporter({
          url: `${(endpoint as string).replace(/\/$/, '')}${(endpoint as string).endsWith('/v1/traces') ? '' : '/v1/traces'}`,
          timeoutMillis: exportTimeoutMs,
          ...(options.headers === undefined ? {} : { headers: options.headers }),
        })
      : new GrpcTraceExporter({
          url: endpoint as string,
          timeoutMillis: exportTimeoutMs,
          ...(options.headers === undefined ? {} : { metadata: grpcMetadata(options.headers) }),
        }));
  const builder = new SpanBuilder({
    captureContent: options.captureContent ?? contentCaptureFromEnvironment(environment),
    maxAttributeLength: options.maxAttributeLength ?? 65_536,
    resource: resourceFromAttributes({
      'service.name': options.serviceName ?? environment.OTEL_SERVICE_NAME ?? 'agent-trace',
    }),
  });
  const stats: OtlpSinkStats = { exported: 0, failed: 0, dropped: 0, truncated: 0 };
  const queue: ReadableSpan[] = [];
  let inflightRequests = 0;
  let inflightSpans = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  /** Wakes whoever waits for a change: an export settled, or a flush ran out of time. */
  let change = newSignal();
  const signalChange = (): void => {
    const current = change;
    change = newSignal();
    current.fire();
  };

  const send = (batch: ReadableSpan[]): void => {
    inflightRequests++;
    inflightSpans += batch.length;
    let settled = false;
    const settle = (result: ExportResult | undefined): void => {
      if (settled) return;
      settled = true;
      inflightRequests--;
      inflightSpans -= batch.length;
      clearTimeout(deadline);
      if (result?.code === ExportResultCode.SUCCESS) stats.exported += batch.length;
      else stats.failed += batch.length;
      if (!closed) sendQueued();
      signalChange();
    };
    const deadline = setTimeout(() => settle(undefined), exportTimeoutMs + 100).unref();
    try {
      exporter.export(batch, settle);
    } catch {
      settle(undefined);
    }
  };

  // At most `maxConcurrentExports` requests in flight (the OTLP exporters refuse past their own
  // limit); what does not fit waits in the queue and leaves when a request settles.
  const sendQueued = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    while (queue.length > 0 && inflightRequests < maxConcurrentExports) {
      // One splice a batch: shifting span by span moved the whole queue for every span.
      let count = 0;
      let bytes = 0;
      while (count < queue.length && count < maxBatchSpans) {
        const size = estimateBytes(queue[count] as ReadableSpan);
        if (count > 0 && bytes + size > maxBatchBytes) break;
        bytes += size;
        count++;
      }
      send(queue.splice(0, count));
    }
  };

  /** When each sealing run's end-of-run budget runs out (its `beforeSeal` started it). */
  const sealDeadlines = new Map<string, number>();
  /** The budget left for the next `flush`: that of the run whose `run_end` came last. */
  let flushDeadline: number | undefined;

  /** Sends the queue and waits until it and every request in flight are done, or the deadline. */
  const flushBounded = async (deadline = Date.now() + flushTimeoutMs): Promise<void> => {
    sendQueued();
    let timedOut = false;
    const timeout = setTimeout(
      () => {
        timedOut = true;
        signalChange();
      },
      Math.max(0, deadline - Date.now()),
    );
    while (!timedOut && (queue.length > 0 || inflightRequests > 0)) await change.promise;
    clearTimeout(timeout);
    stats.truncated = builder.truncated;
  };

  return {
    stats,
    write(event: TraceEvent) {
      if (closed) return;
      if (event.event === 'run_end') {
        flushDeadline = sealDeadlines.get(event.run);
        sealDeadlines.delete(event.run);
      }
      const span = builder.accept(event);
      if (span === undefined) return;
      if (queue.length >= maxQueueSize) {
        stats.dropped++;
        return;
      }
      queue.push(span);
      if (queue.length >= maxBatchSpans) sendQueued();
      else timer ??= setTimeout(sendQueued, batchDelayMs).unref();
    },
    // With awaitAtRunEnd, the run waits for its spans once before its seal and once after it
    // (for the run's own span); both together stay within one flushTimeoutMs. Without, a run's
    // end only sends what is queued.
    flush() {
      const deadline = flushDeadline;
      flushDeadline = undefined;
      if (!awaitAtRunEnd) {
        sendQueued();
        return Promise.resolve();
      }
      return flushBounded(deadline);
    },
    forceFlush: () => flushBounded(),
    async beforeSeal(runId: string): Promise<SinkHealth> {
      if (awaitAtRunEnd) {
        const deadline = Date.now() + flushTimeoutMs;
        sealDeadlines.set(runId, deadline);
        await flushBounded(deadline);
      } else {
        sendQueued();
        // A full batch still queued means the requests in flight have not been answered. A run
        // whose model and tools never touch I/O (fakes) would never let those answers in: give the
        // event loop one turn. This waits for no collector; it only lets I/O proceed.
        if (queue.length >= maxBatchSpans) await new Promise(resolve => setImmediate(resolve));
      }
      return {
        dropped: stats.dropped,
        failed: stats.failed,
        pending: inflightSpans + queue.length,
      };
    },
    async shutdown() {
      queue.push(...builder.unfinished());
      await flushBounded();
      closed = true;
      stats.dropped += queue.length;
      queue.length = 0;
      await Promise.race([
        exporter.shutdown(),
        new Promise(resolve => setTimeout(resolve, flushTimeoutMs).unref()),
      ]);
    },
  };
}
