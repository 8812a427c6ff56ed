import { agent, run, steppingClock, tool, type TraceEvent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { otlpSink } from '@agent-trace/trace/otlp';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { receiver } from './otlp-fixtures.js';

/** An exporter that holds every request until the test answers it. */
class HeldExporter implements SpanExporter {
  readonly requests: Array<{ spans: ReadableSpan[]; answer: (result: ExportResult) => void }> = [];
  inFlight = 0;
  mostInFlight = 0;
  export(spans: ReadableSpan[], answer: (result: ExportResult) => void): void {
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    this.requests.push({
      spans,
      answer: result => {
        this.inFlight--;
        answer(result);
      },
    });
  }
  /** Answers every request held so far with `code`. */
  answerAll(code: ExportResultCode): number {
    const held = this.requests.splice(0);
    for (const request of held) request.answer({ code });
    return held.length;
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const echo = tool({
  name: 'echo',
  description: 'Echo text back',
  input: z.object({ size: z.number(), call: z.number() }),
  execute: ({ size }) => 'x'.repeat(size),
});

/** An agent calling `echo` `calls` times with results of `size` characters: 2 + calls × 2 + 1 spans. */
const echoer = (calls: number, size: number) =>
  agent({
    name: 'echoer',
    model: fakeLLM([
      ...Array.from({ length: calls }, (_, call) => ({
        toolCalls: [{ name: 'echo', args: { size, call } }],
      })),
      { text: 'done' },
    ]),
    tools: [echo],
    limits: { maxSteps: calls + 1, maxToolCallsPerTool: calls },
  });

const isoMillis = (time: [number, number]): string =>
  new Date(time[0] * 1000 + Math.floor(time[1] / 1e6)).toISOString();

describe('otlpSink batching (the SDK BatchSpanProcessor, sized and counted)', () => {
  it('cuts batches under maxBatchBytes so a 4 MiB-limited collector takes all of them', async () => {
    const collector = await receiver();
    const sink = otlpSink({
      endpoint: collector.url,
      captureContent: true,
      maxAttributeLength: 2_000_000,
    });
    // Four tool results of 1.5 M characters: 6 MB of spans, over the receiver's 4 MiB message limit.
    await run(echoer(4, 1_500_000), 'go', { trace: sink, clock: steppingClock() });
    await sink.forceFlush();
    expect(sink.stats).toMatchObject({ exported: 11, failed: 0, dropped: 0 });
    expect(collector.spans).toHaveLength(11);
    expect(collector.requests).toBeGreaterThanOrEqual(2);
    await sink.shutdown();
  });

  it('keeps at most maxConcurrentExports requests in flight, joins small batches, and keeps the trace ids and times', async () => {
    const exporter = new HeldExporter();
    const memory = memorySink();
    const sink = otlpSink({ exporter, maxConcurrentExports: 2, maxBatchSpans: 100 });
    for (let index = 0; index < 10; index++)
      await run(echoer(3, 1), 'go', { trace: [memory, sink], clock: steppingClock() });
    // Each run's end sends what is queued. The first run's spans before its seal and its own span
    // after it take both request slots; the other nine runs' spans wait.
    expect(exporter.mostInFlight).toBe(2);
    expect(exporter.requests.map(request => request.spans.length)).toEqual([8, 1]);
    exporter.answerAll(ExportResultCode.SUCCESS);
    // The 81 spans that waited leave as one joined request of at most maxBatchSpans.
    expect(exporter.requests.map(request => request.spans.length)).toEqual([81]);
    const spans = exporter.requests[0]!.spans;
    exporter.answerAll(ExportResultCode.SUCCESS);
    await sink.forceFlush();
    expect(sink.stats).toMatchObject({ exported: 90, failed: 0, dropped: 0 });

    const runStarts = memory.events.filter(
      (event): event is Extract<TraceEvent, { event: 'run_start' }> => event.event === 'run_start',
    );
    const last = runStarts.at(-1)!;
    const root = spans.find(
      span =>
        span.name === 'invoke_workflow echoer' && span.spanContext().traceId === last.trace_id,
    )!;
    expect(root).toBeDefined();
    expect(root.spanContext().spanId).toBe(last.span_id);
    expect(isoMillis(root.startTime)).toBe(last.time);
    await sink.shutdown();
  });

  it('counts a refused request as failed, and one still unanswered at shutdown too', async () => {
    const exporter = new HeldExporter();
    const sink = otlpSink({ exporter, maxConcurrentExports: 1, flushTimeoutMs: 50 });
    for (let index = 0; index < 3; index++)
      await run(echoer(1, 1), 'go', { trace: sink, clock: steppingClock() });
    expect(exporter.requests.map(request => request.spans.length)).toEqual([4]);
    exporter.answerAll(ExportResultCode.FAILED);
    expect(exporter.requests.map(request => request.spans.length)).toEqual([11]);
    // The joined request is never answered: shutdown waits 50 ms for it, then counts it failed.
    await sink.shutdown();
    expect(sink.stats).toMatchObject({ exported: 0, failed: 15, dropped: 0 });
  });
});
