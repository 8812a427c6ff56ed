import {
  Server,
  ServerCredentials,
  status,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
} from '@grpc/grpc-js';
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeMetricsRequest, type ReceivedMetric } from './otlp-metrics.js';
import { exportTraceServiceRequest } from './otlp-proto.js';
import { decodeLogsRequest, type ReceivedLog } from './otlp-logs.js';
import { attributesOf, hex, nanos, type KeyValue, type Uint64 } from './otlp-values.js';

/** A span as the receiver decoded it. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: 'UNSPECIFIED' | 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
  readonly startTimeUnixNano: bigint;
  readonly endTimeUnixNano: bigint;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly status: { readonly code: 'UNSET' | 'OK' | 'ERROR'; readonly message: string };
  readonly events: readonly {
    readonly name: string;
    readonly attributes: Readonly<Record<string, unknown>>;
  }[];
  /** The resource's attributes (`service.name`, …). */
  readonly resource: Readonly<Record<string, unknown>>;
}

/** How the receiver answers. */
export type ReceiverBehaviour =
  | { readonly kind: 'accept' }
  | { readonly kind: 'unavailable' }
  | { readonly kind: 'resource_exhausted' }
  | { readonly kind: 'slow'; readonly delayMs: number };

/** A running in-process OTLP receiver: see {@link startOtlpReceiver}. */
export interface OtlpReceiver {
  /** Where to export over gRPC (traces and metrics): `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Where to export traces over HTTP/protobuf: `http://127.0.0.1:<port>/v1/traces`. */
  readonly httpUrl: string;
  /** Where to export metrics over HTTP/protobuf: `http://127.0.0.1:<port>/v1/metrics`. */
  readonly httpMetricsUrl: string;
  readonly spans: readonly ReceivedSpan[];
  /** Every metric of every accepted metrics export, in arrival order. */
  readonly metrics: readonly ReceivedMetric[];
  /** Every log record (and event) of every accepted logs export, in arrival order. */
  readonly logs: readonly ReceivedLog[];
  /** Trace export requests received, answered or not. */
  readonly requests: number;
  /** Metrics export requests received, answered or not. */
  readonly metricRequests: number;
  /** The headers (HTTP) or metadata (gRPC) of the latest request, keys in lower case. */
  readonly lastHeaders: Readonly<Record<string, string>>;
  /** Changes how the next requests are answered. */
  setBehaviour(behaviour: ReceiverBehaviour): void;
  /** Resolves once `count` spans arrived; rejects after `timeoutMs`. */
  waitForSpans(count: number, timeoutMs?: number): Promise<void>;
  /**
   * The latest export of the metric called `name`, once one arrived (cumulative metrics are sent
   * whole each time); rejects after `timeoutMs`.
   */
  waitForMetric(name: string, timeoutMs?: number): Promise<ReceivedMetric>;
  /** Resolves once `count` log records arrived; rejects after `timeoutMs`. */
  waitForLogs(count: number, timeoutMs?: number): Promise<readonly ReceivedLog[]>;
  /** Stops at once; answers the `slow` behaviour still holds are never sent. */
  close(): Promise<void>;
}

const kinds = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;
const codes = ['UNSET', 'OK', 'ERROR'] as const;

interface DecodedRequest {
  resource_spans?: {
    resource?: { attributes?: KeyValue[] };
    scope_spans?: {
      spans?: {
        trace_id?: Uint8Array;
        span_id?: Uint8Array;
        parent_span_id?: Uint8Array;
        name?: string;
        kind?: number;
        start_time_unix_nano?: Uint64;
        end_time_unix_nano?: Uint64;
        attributes?: KeyValue[];
        events?: { name?: string; attributes?: KeyValue[] }[];
        status?: { message?: string; code?: number };
      }[];
    }[];
  }[];
}

/** Decodes an OTLP `ExportTraceServiceRequest` into spans. */
export function decodeTraceRequest(bytes: Uint8Array): ReceivedSpan[] {
  const decoded = exportTraceServiceRequest().decode(bytes) as unknown as DecodedRequest;
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of decoded.resource_spans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scope_spans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          traceId: hex(span.trace_id),
          spanId: hex(span.span_id),
          parentSpanId: hex(span.parent_span_id),
          name: span.name ?? '',
          kind: kinds[span.kind ?? 0] ?? 'UNSPECIFIED',
          startTimeUnixNano: nanos(span.start_time_unix_nano),
          endTimeUnixNano: nanos(span.end_time_unix_nano),
          attributes: attributesOf(span.attributes),
          status: {
            code: codes[span.status?.code ?? 0] ?? 'UNSET',
            message: span.status?.message ?? '',
          },
          events: (span.events ?? []).map(event => ({
            name: event.name ?? '',
            attributes: attributesOf(event.attributes),
          })),
          resource,
        });
      }
    }
  }
  return spans;
}

const passThrough = (bytes: Buffer): Buffer => bytes;
const exportService = (
  signal: 'trace' | 'metrics' | 'logs',
  service: string,
): ServiceDefinition => ({
  export: {
    path: `/opentelemetry.proto.collector.${signal}.v1.${service}/Export`,
    requestStream: false,
    responseStream: false,
    requestSerialize: passThrough,
    requestDeserialize: passThrough,
    responseSerialize: passThrough,
    responseDeserialize: passThrough,
  },
});

/** The receiver's two signals: which requests each counts, and where its data goes. */
interface Signal {
  requests: number;
  receive(bytes: Uint8Array): void;
}

const httpStatus: Record<ReceiverBehaviour['kind'], number> = {
  accept: 200,
  slow: 200,
  unavailable: 503,
  resource_exhausted: 413,
};

/**
 * Starts an OTLP receiver on 127.0.0.1 — gRPC on one free port, HTTP/protobuf
 * (`POST /v1/traces`, `POST /v1/metrics`, `POST /v1/logs`) on another. It decodes the export
 * requests into spans, metrics and log records, and can be told to refuse (UNAVAILABLE, RESOURCE_EXHAUSTED) or to answer slowly, so
 * tests can check what an exporter sends and how a run copes with a collector that fails. No
 * Docker, no downloads.
 *
 * @example
 * ```ts
 * const receiver = await startOtlpReceiver();
 * await run(agent, input, { trace: otlpSink({ endpoint: receiver.url }) });
 * receiver.spans.map(span => span.name); // ['chat gpt-4o', 'execute_tool search', 'invoke_agent triage', …]
 * await receiver.close();
 * ```
 */
export async function startOtlpReceiver(
  options: { behaviour?: ReceiverBehaviour } = {},
): Promise<OtlpReceiver> {
  const state = new ReceiverState(options.behaviour ?? { kind: 'accept' });
  const { spans, metrics, logs, traces, metricSignal } = state;
  const grpc = await startGrpc(state);
  const http = await startHttp(state);
  return {
    url: `http://127.0.0.1:${grpc.port}`,
    httpUrl: `http://127.0.0.1:${http.port}/v1/traces`,
    httpMetricsUrl: `http://127.0.0.1:${http.port}/v1/metrics`,
    spans,
    metrics,
    logs,
    get requests() {
      return traces.requests;
    },
    get metricRequests() {
      return metricSignal.requests;
    },
    get lastHeaders() {
      return state.lastHeaders;
    },
    setBehaviour(next) {
      state.behaviour = next;
    },
    waitForSpans: async (count, timeoutMs = 5000) => {
      await state.waitFor(
        () => (spans.length >= count ? true : undefined),
        () => `OTLP receiver got ${spans.length} spans within ${timeoutMs} ms; expected ${count}.`,
        timeoutMs,
      );
    },
    waitForMetric: (name, timeoutMs = 5000) =>
      state.waitFor(
        () => metrics.findLast(metric => metric.name === name),
        () =>
          `OTLP receiver got no metric '${name}' within ${timeoutMs} ms; it got: ${[...new Set(metrics.map(metric => metric.name))].join(', ') || 'none'}.`,
        timeoutMs,
      ),
    waitForLogs: (count, timeoutMs = 5000) =>
      state.waitFor(
        () => (logs.length >= count ? logs : undefined),
        () =>
          `OTLP receiver got ${logs.length} log records within ${timeoutMs} ms; expected ${count}.`,
        timeoutMs,
      ),
    close: async () => {
      state.dropHeld();
      grpc.server.forceShutdown();
      http.server.closeAllConnections();
      await new Promise<void>(resolve => http.server.close(() => resolve()));
    },
  };
}

/** What the receiver's two servers share: what came in, how to answer, and who waits for what. */
class ReceiverState {
  readonly spans: ReceivedSpan[] = [];
  readonly metrics: ReceivedMetric[] = [];
  lastHeaders: Record<string, string> = {};
  readonly traces: Signal = {
    requests: 0,
    receive: bytes => this.spans.push(...decodeTraceRequest(bytes)),
  };
  readonly metricSignal: Signal = {
    requests: 0,
    receive: bytes => this.metrics.push(...decodeMetricsRequest(bytes)),
  };
  readonly logs: ReceivedLog[] = [];
  readonly logSignal: Signal = {
    requests: 0,
    receive: bytes => this.logs.push(...decodeLogsRequest(bytes)),
  };
  /** Answers held back by the `slow` behaviour, dropped on close. */
  readonly #held = new Set<ReturnType<typeof setTimeout>>();
  readonly #waiters = new Set<() => void>();

  constructor(public behaviour: ReceiverBehaviour) {}

  /** Answers after `delayMs`, unless the receiver closes first. */
  later(answer: () => void, delayMs: number): void {
    const timer = setTimeout(() => {
      this.#held.delete(timer);
      answer();
    }, delayMs);
    this.#held.add(timer);
  }

  dropHeld(): void {
    for (const timer of this.#held) clearTimeout(timer);
    this.#held.clear();
  }

  /** Something came in: those who wait look again. */
  wake(): void {
    for (const waiter of this.#waiters) waiter();
  }

  /** Resolves with `found()` once it is defined; rejects with `failure()` after `timeoutMs`. */
  waitFor<T>(found: () => T | undefined, failure: () => string, timeoutMs: number): Promise<T> {
    const now = found();
    if (now !== undefined) return Promise.resolve(now);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(failure()));
      }, timeoutMs);
      const check = (): void => {
        const value = found();
        if (value === undefined) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(value);
      };
      this.#waiters.add(check);
    });
  }
}

/** The gRPC TraceService and MetricsService on a free port of 127.0.0.1. */
async function startGrpc(state: ReceiverState): Promise<{ server: Server; port: number }> {
  const grpcExport =
    (signal: Signal) =>
    (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>): void => {
      signal.requests++;
      state.lastHeaders = Object.fromEntries(
        Object.entries(call.metadata.getMap()).map(([key, value]) => [key, value.toString()]),
      );
      const current = state.behaviour;
      if (current.kind === 'unavailable')
        return callback({ code: status.UNAVAILABLE, details: 'receiver is down (scripted)' });
      if (current.kind === 'resource_exhausted')
        return callback({
          code: status.RESOURCE_EXHAUSTED,
          details: 'message too large (scripted)',
        });
      const accept = (): void => {
        signal.receive(call.request);
        state.wake();
        callback(null, Buffer.alloc(0));
      };
      if (current.kind === 'slow') state.later(accept, current.delayMs);
      else accept();
      return undefined;
    };
  const server = new Server();
  server.addService(exportService('trace', 'TraceService'), { export: grpcExport(state.traces) });
  server.addService(exportService('metrics', 'MetricsService'), {
    export: grpcExport(state.metricSignal),
  });
  server.addService(exportService('logs', 'LogsService'), { export: grpcExport(state.logSignal) });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    ),
  );
  return { server, port };
}

/** `POST /v1/traces` and `POST /v1/metrics` (protobuf) on a free port of 127.0.0.1. */
async function startHttp(state: ReceiverState): Promise<{ server: HttpServer; port: number }> {
  const signals: Record<string, Signal> = {
    '/v1/traces': state.traces,
    '/v1/metrics': state.metricSignal,
    '/v1/logs': state.logSignal,
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const signal = signals[request.url ?? ''];
      if (request.method !== 'POST' || signal === undefined) {
        response.writeHead(404).end();
        return;
      }
      signal.requests++;
      state.lastHeaders = Object.fromEntries(
        Object.entries(request.headers).map(([key, value]) => [key, String(value)]),
      );
      const current = state.behaviour;
      const answer = (): void => {
        if (httpStatus[current.kind] === 200) {
          signal.receive(Buffer.concat(chunks));
          state.wake();
        }
        response
          .writeHead(httpStatus[current.kind], { 'content-type': 'application/x-protobuf' })
          .end();
      };
      if (current.kind === 'slow') state.later(answer, current.delayMs);
      else answer();
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
