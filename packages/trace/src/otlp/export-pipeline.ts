import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { AccountedExporter, type AccountedExporterLimits } from './accounted-exporter.js';

/** Limits of an {@link ExportPipeline}. */
export interface ExportPipelineLimits extends AccountedExporterLimits {
  /** Unsent spans held at most; past it, new spans are dropped and counted. */
  maxQueueSize: number;
  /** How long a span may wait for a batch to fill. */
  batchDelayMs: number;
}

function newSignal(): { promise: Promise<void>; fire: () => void } {
  let fire = (): void => undefined;
  const promise = new Promise<void>(resolve => (fire = resolve));
  return { promise, fire };
}

/**
 * Finished spans on their way to a collector, through the SDK's own `BatchSpanProcessor` (its
 * queue, batch size and delay) and an {@link AccountedExporter} (request size, requests in flight,
 * deadlines, counts). Every span added is, at any moment, exported, failed, dropped or pending,
 * and {@link drain} waits for the pending ones with a deadline, never longer.
 */
export class ExportPipeline {
  readonly #processor: BatchSpanProcessor;
  readonly #exporter: AccountedExporter;
  readonly #maxQueueSize: number;
  readonly #maxBatchSpans: number;
  #added = 0;
  #droppedHere = 0;
  #closed = false;
  /** Wakes whoever waits for a change: a request settled, or a wait ran out of time. */
  #change = newSignal();

  constructor(exporter: SpanExporter, limits: ExportPipelineLimits) {
    this.#maxQueueSize = limits.maxQueueSize;
    this.#maxBatchSpans = Math.min(limits.maxBatchSpans, limits.maxQueueSize);
    this.#exporter = new AccountedExporter(
      exporter,
      { ...limits, maxBatchSpans: this.#maxBatchSpans },
      () => this.#signalChange(),
    );
    this.#processor = new BatchSpanProcessor({
      exporter: this.#exporter,
      maxQueueSize: limits.maxQueueSize,
      maxExportBatchSize: this.#maxBatchSpans,
      scheduledDelayMillis: limits.batchDelayMs,
      // The exporter fails a request itself at its deadline; this only lets the next batch start.
      exportTimeoutMillis: limits.exportTimeoutMs + 200,
    });
  }

  #signalChange(): void {
    const current = this.#change;
    this.#change = newSignal();
    current.fire();
  }

  /** Spans in the processor's queue, not handed to the exporter yet. */
  #buffered(): number {
    return this.#added - this.#exporter.received;
  }

  /** Spans not sent yet: in the processor's queue or waiting for a request slot. */
  #queued(): number {
    return this.#buffered() + this.#exporter.waiting;
  }

  /** Spans added and not answered for yet: queued or in flight. */
  pending(): number {
    return this.#added - this.#exporter.settled;
  }

  /** Why the last request that failed did, if one did. */
  get lastFailure(): string | undefined {
    return this.#exporter.lastFailure;
  }

  /** True while the last request answered for failed. */
  get failing(): boolean {
    return this.#exporter.failing;
  }

  /** What became of the spans so far. */
  counts(): { exported: number; failed: number; dropped: number } {
    const { exported, failed, dropped } = this.#exporter.counts;
    return { exported, failed, dropped: dropped + this.#droppedHere };
  }

  /**
   * Queues a finished span. Past `maxQueueSize` unsent spans it is dropped here, where it is
   * counted: the processor would drop it without a count. So the processor's queue never overflows.
   */
  add(span: ReadableSpan): void {
    if (this.#closed || this.#queued() >= this.#maxQueueSize) {
      this.#droppedHere++;
      return;
    }
    this.#added++;
    this.#processor.onEnd(span);
  }

  /** Hands what the processor holds to the exporter now, without waiting for a full batch. */
  sendQueued(): void {
    if (this.#buffered() > 0) this.#processor.forceFlush().catch(() => undefined);
  }

  /**
   * Sends what is queued and gives the event loop one turn when a full batch still waits: a run
   * whose model and tools never touch I/O (fakes) would otherwise never let the collector's
   * answers in. This waits for no collector.
   */
  async nudge(): Promise<void> {
    this.sendQueued();
    if (this.#queued() >= this.#maxBatchSpans) await new Promise(resolve => setImmediate(resolve));
  }

  /** Sends what is queued and waits until every span is answered for, or until `deadline`. */
  async drain(deadline: number): Promise<void> {
    let timedOut = false;
    const timeout = setTimeout(
      () => {
        timedOut = true;
        this.#signalChange();
      },
      Math.max(0, deadline - Date.now()),
    );
    while (!timedOut && this.pending() > 0) {
      this.sendQueued();
      await this.#change.promise;
    }
    clearTimeout(timeout);
  }

  /**
   * Drains until `deadline`, then closes: what is still unsent is counted dropped, the exporter is
   * shut down (waiting for it until `deadline`, and at least `minShutdownMs`), and requests still
   * unanswered count as failed. Afterwards every span added is exported, failed or dropped.
   */
  async shutdown(deadline: number, minShutdownMs = 0): Promise<void> {
    await this.drain(deadline);
    const shutdownTimeoutMs = Math.max(minShutdownMs, deadline - Date.now());
    this.#closed = true;
    // The processor's shutdown hands what it still holds to the closed exporter, which counts it
    // dropped; it stops at that failed batch before shutting the exporter down, so the catch does.
    this.#exporter.close();
    await Promise.race([
      this.#processor.shutdown().catch(() => this.#exporter.shutdown()),
      new Promise(resolve => setTimeout(resolve, shutdownTimeoutMs).unref()),
    ]);
    this.#exporter.abandon();
  }
}
