import {
  Server,
  ServerCredentials,
  status,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
} from '@grpc/grpc-js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportTraceServiceRequest } from './otlp-proto.js';

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
  /** Where to export over gRPC: `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Where to export over HTTP/protobuf: `http://127.0.0.1:<port>/v1/traces`. */
  readonly httpUrl: string;
  readonly spans: readonly ReceivedSpan[];
  /** Export requests received, answered or not. */
  readonly requests: number;
  /** The headers (HTTP) or metadata (gRPC) of the latest request, keys in lower case. */
  readonly lastHeaders: Readonly<Record<string, string>>;
  /** Changes how the next requests are answered. */
  setBehaviour(behaviour: ReceiverBehaviour): void;
  /** Resolves once `count` spans arrived; rejects after `timeoutMs`. */
  waitForSpans(count: number, timeoutMs?: number): Promise<void>;
  /** Stops at once; answers the `slow` behaviour still holds are never sent. */
  close(): Promise<void>;
}

const kinds = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;
const codes = ['UNSET', 'OK', 'ERROR'] as const;

interface AnyValue {
  string_value?: string;
  bool_value?: boolean;
  int_value?: { toString(): string } | number;
  double_value?: number;
  array_value?: { values?: AnyValue[] };
  kvlist_value?: { values?: KeyValue[] };
  bytes_value?: Uint8Array;
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}

function valueOf(value: AnyValue | undefined): unknown {
  if (value === undefined) return undefined;
  // Decoded messages keep defaults on the prototype: only own properties were on the wire.
  const has = (field: keyof AnyValue): boolean => Object.hasOwn(value, field);
  if (has('string_value')) return value.string_value;
  if (has('bool_value')) return value.bool_value;
  if (has('int_value')) return Number(value.int_value?.toString());
  if (has('double_value')) return value.double_value;
  if (has('array_value')) return (value.array_value?.values ?? []).map(valueOf);
  if (has('kvlist_value')) return attributesOf(value.kvlist_value?.values);
  if (has('bytes_value')) return Buffer.from(value.bytes_value ?? []).toString('hex');
  return undefined;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) attributes[key] = valueOf(value);
  return attributes;
}

const hex = (bytes: Uint8Array | undefined): string =>
  bytes === undefined ? '' : Buffer.from(bytes).toString('hex');
/** protobufjs hands 64-bit fields over as `Long`, string or number depending on options. */
type Uint64 = string | number | { toString(): string };
const nanos = (value: Uint64 | undefined): bigint => BigInt((value ?? 0).toString());

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
const traceService: ServiceDefinition = {
  export: {
    path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
    requestStream: false,
    responseStream: false,
    requestSerialize: passThrough,
    requestDeserialize: passThrough,
    responseSerialize: passThrough,
    responseDeserialize: passThrough,
  },
};

const httpStatus: Record<ReceiverBehaviour['kind'], number> = {
  accept: 200,
  slow: 200,
  unavailable: 503,
  resource_exhausted: 413,
};

/**
 * Starts an OTLP trace receiver on 127.0.0.1 — gRPC on one free port, HTTP/protobuf
 * (`POST /v1/traces`) on another. It decodes the export requests
 * into spans, and can be told to refuse (UNAVAILABLE, RESOURCE_EXHAUSTED) or to answer slowly, so
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
  const spans: ReceivedSpan[] = [];
  let behaviour: ReceiverBehaviour = options.behaviour ?? { kind: 'accept' };
  let requests = 0;
  let lastHeaders: Record<string, string> = {};
  /** Answers held back by the `slow` behaviour, dropped on close. */
  const held = new Set<ReturnType<typeof setTimeout>>();
  const later = (answer: () => void, delayMs: number): void => {
    const timer = setTimeout(() => {
      held.delete(timer);
      answer();
    }, delayMs);
    held.add(timer);
  };
  const waiters = new Set<() => void>();
  const receive = (bytes: Uint8Array): void => {
    spans.push(...decodeTraceRequest(bytes));
    for (const waiter of waiters) waiter();
  };
  const server = new Server();
  server.addService(traceService, {
    export: (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
      requests++;
      lastHeaders = Object.fromEntries(
        Object.entries(call.metadata.getMap()).map(([key, value]) => [key, value.toString()]),
      );
      const current = behaviour;
      if (current.kind === 'unavailable')
        return callback({ code: status.UNAVAILABLE, details: 'receiver is down (scripted)' });
      if (current.kind === 'resource_exhausted')
        return callback({
          code: status.RESOURCE_EXHAUSTED,
          details: 'message too large (scripted)',
        });
      const accept = (): void => {
        receive(call.request);
        callback(null, Buffer.alloc(0));
      };
      if (current.kind === 'slow') later(accept, current.delayMs);
      else accept();
      return undefined;
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error === null ? resolve(bound) : reject(error),
    ),
  );
  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      requests++;
      lastHeaders = Object.fromEntries(
        Object.entries(request.headers).map(([key, value]) => [key, String(value)]),
      );
      const current = behaviour;
      const answer = (): void => {
        if (httpStatus[current.kind] === 200) receive(Buffer.concat(chunks));
        response
          .writeHead(httpStatus[current.kind], { 'content-type': 'application/x-protobuf' })
          .end();
      };
      if (current.kind === 'slow') later(answer, current.delayMs);
      else answer();
    });
  });
  await new Promise<void>(resolve => http.listen(0, '127.0.0.1', resolve));
  const httpPort = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    httpUrl: `http://127.0.0.1:${httpPort}/v1/traces`,
    spans,
    get requests() {
      return requests;
    },
    get lastHeaders() {
      return lastHeaders;
    },
    setBehaviour(next) {
      behaviour = next;
    },
    waitForSpans(count, timeoutMs = 5000) {
      if (spans.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `OTLP receiver got ${spans.length} spans within ${timeoutMs} ms; expected ${count}.`,
            ),
          );
        }, timeoutMs);
        const check = (): void => {
          if (spans.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    close: async () => {
      for (const timer of held) clearTimeout(timer);
      held.clear();
      server.forceShutdown();
      http.closeAllConnections();
      await new Promise<void>(resolve => http.close(() => resolve()));
    },
  };
}
