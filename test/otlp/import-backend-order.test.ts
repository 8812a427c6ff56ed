/**
 * What a backend does to exported spans, undone by the import: it answers a trace's spans in an
 * order of its own (Jaeger does), spans of a fast run share their millisecond, and the
 * conventions' messages carry no error flag on a tool's result. The import orders spans by the
 * seq agent-trace writes on them, reads a guardrail's verdict back from its span event, and marks
 * a tool message an error when its call failed: the run reruns as the same. Each was a false
 * divergence of a run pulled back from a real Jaeger.
 */
import { agent, run, tool, type TraceEvent } from '@agent-trace/core';
import type { Guardrail } from '@agent-trace/core/guardrail';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, rerunTrace, validateTrace } from '@agent-trace/trace';
import { importSpans, spansFromOtlpJson } from '@agent-trace/trace/import';
import { otlpSink } from '@agent-trace/trace/otlp';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const shortInput: Guardrail = {
  name: 'short_input',
  check: ({ text }) =>
    text.length > 10
      ? { verdict: 'warn', reason: `${text.length} characters` }
      : { verdict: 'allow' },
};

function desk() {
  const count = tool({
    name: 'count',
    description: 'Count the words of a text',
    input: z.object({ text: z.string() }),
    execute: ({ text }) => text.split(' ').length,
  });
  return agent({
    name: 'desk',
    instructions: 'Count words.',
    tools: [count],
    guardrails: { input: [shortInput] },
    model: fakeLLM(
      [
        { toolCalls: [{ name: 'count', args: { text: 42 } }] },
        { toolCalls: [{ name: 'count', args: { text: 'three words here' } }] },
        { text: 'It has 3 words.' },
      ],
      { allowUnusedSteps: true },
    ),
  });
}

/** The spans, every start and end at one millisecond, as OTLP JSON in the order given. */
function sameMillisecond(spans: readonly ReadableSpan[], order: readonly number[]): string {
  const at: [number, number] = [1_800_000_000, 0];
  const moved = order.map(index => {
    const span = spans[index]!;
    return {
      ...span,
      startTime: at,
      endTime: at,
      events: span.events.map(event => ({ ...event, time: at })),
    };
  });
  return new TextDecoder().decode(JsonTraceSerializer.serializeRequest(moved));
}

describe('a run exported, its spans answered in any order at one millisecond', () => {
  it('imports with its guardrail and its failed tool call, and reruns as the same', async () => {
    const exporter = new InMemorySpanExporter();
    const sink = otlpSink({ exporter, captureContent: true });
    const recorded = memorySink();
    await run(desk(), 'How many words in this?', { trace: [recorded, sink] });
    await sink.forceFlush();
    const spans = exporter.getFinishedSpans();
    expect(recorded.events.some(event => event.event === 'guardrail')).toBe(true);
    const indexes = spans.map((_, index) => index);
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(indexes, { minLength: indexes.length }), async order => {
        const { events } = importSpans(spansFromOtlpJson(sameMillisecond(spans, order)));
        expect(validateTrace(events).problems).toEqual([]);
        expect(events.filter(event => event.event === 'guardrail')).toMatchObject([
          { guardrail: 'short_input', stage: 'input', verdict: 'warn' },
        ]);
        const report = await rerunTrace(events, desk());
        expect(report.differences).toEqual([]);
      }),
      { numRuns: 20, seed: 63 },
    );
  });
});

describe('a run of an agent with a memory window, exported and imported', () => {
  it('reruns as the same: each windowed request comes back as the loop chose it', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Look an order up',
      input: z.object({ order: z.string() }),
      execute: ({ order }) => `${order}: shipped`,
    });
    const windowed = () =>
      agent({
        name: 'clerk',
        instructions: 'Look orders up.',
        tools: [lookup],
        memory: { window: 3 },
        model: fakeLLM(
          [
            ...['A-1', 'A-2', 'A-3', 'A-4'].map(order => ({
              toolCalls: [{ name: 'lookup', args: { order } }],
            })),
            { text: 'All four shipped.' },
          ],
          { allowUnusedSteps: true },
        ),
      });
    const exporter = new InMemorySpanExporter();
    const sink = otlpSink({ exporter, captureContent: true });
    const recorded = memorySink();
    await run(windowed(), 'Where are A-1 to A-4?', { trace: [recorded, sink] });
    await sink.forceFlush();
    /** Each request as `llm_start` records it: how many messages it sent, its hash, what was new. */
    const requests = (trace: readonly TraceEvent[]) =>
      trace.flatMap(event =>
        event.event === 'llm_start'
          ? [[event.message_count, event.request_hash, event.messages.length]]
          : [],
      );
    expect(requests(recorded.events).map(([count]) => count)).toEqual([1, 3, 3, 3, 3]);
    const json = new TextDecoder().decode(
      JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans()),
    );
    const { events } = importSpans(spansFromOtlpJson(json));
    expect(requests(events)).toEqual(requests(recorded.events));
    expect((await rerunTrace(events, windowed())).differences).toEqual([]);
  });
});
