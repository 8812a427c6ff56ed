import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/** What became of the spans an {@link AccountedExporter} was handed. */
export interface ExportCounts {
  /** Confirmed by the collector. */
  exported: number;
  /** Refused, failed or unanswered within the deadline. */
  failed: number;
  /** Never sent: handed over after the exporter closed. */
  dropped: number;
}

/** Limits of an {@link AccountedExporter}. */
export interface AccountedExporterLimits {
  /** Spans of one request at most; small batches waiting for a slot are joined up to it. */
  maxBatchSpans: number;
  /** A request's estimated size in bytes; a larger batch goes out as several requests. */
  maxBatchBytes: number;
  /** Requests in flight at once; the rest wait their turn. */
  maxConcurrentExports: number;
  /** A request not answered within this (plus a margin) counts as failed. */
  exportTimeoutMs: number;
}

interface Request {
  spans: ReadableSpan[];
  bytes: number;
  done: Array<(succeeded: boolean) => void>;
}

/** A span's size on the wire, roughly: enough to keep requests under a collector's limit. */
export function estimateBytes(span: ReadableSpan): number {
  let bytes = 200 + span.name.length;
  for (const [key, value] of Object.entries(span.attributes))
    bytes += key.length + (typeof value === 'string' ? value.length : 16);
  return bytes;
}

/** Cuts spans into requests whose estimated size stays under `maxBytes` (a lone larger span goes alone). */
function cutBySize(
  spans: ReadableSpan[],
  maxBytes: number,
  done: (succeeded: boolean) => void,
): Request[] {
  const requests: Request[] = [];
  let current: Request = { spans: [], bytes: 0, done: [done] };
  for (const span of spans) {
    const size = estimateBytes(span);
    if (current.spans.length > 0 && current.bytes + size > maxBytes) {
      requests.push(current);
      current = { spans: [], bytes: 0, done: [done] };
    }
    current.spans.push(span);
    current.bytes += size;
  }
  if (current.spans.length > 0) requests.push(current);
  return requests;
}

/**
 * Stands between the SDK's `BatchSpanProcessor` and the OTLP exporter: cuts each batch into
 * requests under a byte budget (Jaeger refuses gRPC messages over 4 MiB), keeps at most a few
 * requests in flight (the OTLP exporters refuse past their own limit), fails a request the
 * collector leaves unanswered, and counts what became of every span. The processor knows none of
 * this: it drops silently and reports failures only to the global error handler.
 */
export class AccountedExporter implements SpanExporter {
  /** Spans handed over by the processor. */
  received = 0;
  /** Spans of requests sent and not answered yet. */
  inFlight = 0;
  readonly counts: ExportCounts = { exported: 0, failed: 0, dropped: 0 };
  /** Why the last request that failed did, as the exporter said (or that it was not answered in time). */
  lastFailure: string | undefined;
  /** True while the last request answered for failed: the collector is not taking spans now. */
  failing = false;
  readonly #inner: SpanExporter;
  readonly #limits: AccountedExporterLimits;
  readonly #onSettle: () => void;
  readonly #waiting: Request[] = [];
  /** Settles each request in flight, as failed when called without a result. */
  readonly #inFlightSettles = new Set<(result?: ExportResult) => void>();
  #closed = false;
  #innerShutdown: Promise<void> | undefined;

  /** @param onSettle - called whenever a request is answered, fails or is dropped */
  constructor(inner: SpanExporter, limits: AccountedExporterLimits, onSettle: () => void) {
    this.#inner = inner;
    this.#limits = limits;
    this.#onSettle = onSettle;
  }

  /** Spans counted exported, failed or dropped. */
  get settled(): number {
    return this.counts.exported + this.counts.failed + this.counts.dropped;
  }

  /** Spans handed over but not sent yet, waiting for a request slot. */
  get waiting(): number {
    return this.received - this.settled - this.inFlight;
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.received += spans.length;
    if (this.#closed) {
      this.counts.dropped += spans.length;
      this.#onSettle();
      resultCallback({ code: ExportResultCode.FAILED });
      return;
    }
    let left = 0;
    let allSucceeded = true;
    const done = (succeeded: boolean): void => {
      allSucceeded &&= succeeded;
      if (--left === 0)
        resultCallback({ code: allSucceeded ? ExportResultCode.SUCCESS : ExportResultCode.FAILED });
    };
    const requests = cutBySize(spans, this.#limits.maxBatchBytes, done);
    left = requests.length;
    this.#waiting.push(...requests);
    this.#sendWaiting();
  }

  /** Sends waiting requests while slots are free, joining small ones up to the batch limits. */
  #sendWaiting(): void {
    const { maxBatchSpans, maxBatchBytes, maxConcurrentExports } = this.#limits;
    while (this.#waiting.length > 0 && this.#inFlightSettles.size < maxConcurrentExports) {
      const request = this.#waiting.shift() as Request;
      let next = this.#waiting[0];
      while (
        next !== undefined &&
        request.spans.length + next.spans.length <= maxBatchSpans &&
        request.bytes + next.bytes <= maxBatchBytes
      ) {
        this.#waiting.shift();
        request.spans = request.spans.concat(next.spans);
        request.bytes += next.bytes;
        request.done.push(...next.done);
        next = this.#waiting[0];
      }
      this.#send(request);
    }
  }

  #send({ spans, done }: Request): void {
    this.inFlight += spans.length;
    const settle = (result?: ExportResult): void => {
      if (!this.#inFlightSettles.delete(settle)) return;
      clearTimeout(deadline);
      this.inFlight -= spans.length;
      const succeeded = result?.code === ExportResultCode.SUCCESS;
      this.failing = !succeeded;
      if (succeeded) this.counts.exported += spans.length;
      else {
        this.counts.failed += spans.length;
        this.lastFailure =
          result?.error?.message ?? `no answer within ${this.#limits.exportTimeoutMs} ms`;
      }
      if (!this.#closed) this.#sendWaiting();
      this.#onSettle();
      for (const callback of done) callback(succeeded);
    };
    this.#inFlightSettles.add(settle);
    const deadline = setTimeout(settle, this.#limits.exportTimeoutMs + 100).unref();
    try {
      this.#inner.export(spans, settle);
    } catch {
      settle();
    }
  }

  /** Sends nothing more: what waits, and what comes later, is counted dropped. */
  close(): void {
    this.#closed = true;
    for (const { spans, done } of this.#waiting.splice(0)) {
      this.counts.dropped += spans.length;
      for (const callback of done) callback(false);
    }
    this.#onSettle();
  }

  /** Gives up on the requests in flight: their spans count as failed, whatever answer comes later. */
  abandon(): void {
    for (const settle of [...this.#inFlightSettles]) settle();
  }

  shutdown(): Promise<void> {
    this.close();
    this.#innerShutdown ??= this.#inner.shutdown();
    return this.#innerShutdown;
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush?.() ?? Promise.resolve();
  }
}
