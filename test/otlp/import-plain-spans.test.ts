/**
 * Spans that are not GenAI agents, model calls or tool calls — an HTTP server span, a database
 * query inside a tool, a failing outgoing call — come back from an import as plain spans in the
 * tree, with their names, kinds and attributes, and export again as they came.
 */
import type { TraceEvent } from '@agent-trace/core';
import { compareGoldenTrace } from '@agent-trace/testing';
import { validateTrace } from '@agent-trace/trace';
import { importSpans, spansFromOtlpJson, type ForeignSpan } from '@agent-trace/trace/import';
import { otlpSink } from '@agent-trace/trace/otlp';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deskApiSecret, deskApiSpans, spanIdOf } from '../fixtures/otlp/desk-api-spans.js';
import { spanTree } from '../support/span-tree.js';

const golden = fileURLToPath(new URL('../../golden', import.meta.url));

const deskTree = [
  'run desk',
  '  span POST /chat',
  '    agent desk',
  '      llm desk',
  '      tool lookup',
  '        span SELECT orders',
  '        span GET /carrier',
  '      llm desk',
];

describe('agent-trace import: plain spans', () => {
  it('keeps spans of other kinds in the tree, with their names, kinds, attributes and errors', () => {
    const { events, plainSpans } = importSpans(spansFromOtlpJson(deskApiSpans, 'desk.json'));
    expect(validateTrace(events).problems).toEqual([]);
    expect(spanTree(events)).toEqual(deskTree);
    expect(plainSpans).toEqual([
      { name: 'POST /chat', count: 1 },
      { name: 'SELECT orders', count: 1 },
      { name: 'GET /carrier', count: 1 },
    ]);
    const plain = events.filter(event => event.event === 'span_start');
    expect(plain[0]).toMatchObject({
      name: 'POST /chat',
      span_kind: 'server',
      agent: 'desk',
      attributes: { 'http.route': '/chat' },
    });
    // Outside the agent the envelope names the run; inside, the agent it ran under.
    expect(plain[1]).toMatchObject({
      name: 'SELECT orders',
      agent: 'desk',
      span_kind: 'client',
      attributes: { 'db.query.text': 'SELECT status FROM orders WHERE id = $1' },
    });
    expect(plain[1]).not.toHaveProperty('service');
    expect(
      events.find(event => event.event === 'span_end' && event.name === 'GET /carrier'),
    ).toMatchObject({
      error: { type: 'timeout', message: 'carrier did not answer' },
      duration_ms: 18,
    });
    // The error's type is the error's, not an attribute as well.
    expect(plain[2]).toMatchObject({ attributes: { 'http.request.method': 'GET' } });
    expect(plain[2]).not.toHaveProperty(['attributes', 'error.type']);
    expect(events.at(-1)).toMatchObject({
      event: 'run_end',
      output: 'A-1 has shipped.',
      counts: { llm_calls: 2, tool_calls: 1 },
    });
    // The agent and the run cost what their priced calls cost, as in a run of agent-trace's own.
    const calls = events.flatMap(event =>
      event.event === 'llm_end' && event.cost_usd !== undefined ? [event.cost_usd] : [],
    );
    expect(calls).toHaveLength(2);
    for (const end of events.filter(
      event => event.event === 'agent_end' || event.event === 'run_end',
    ))
      expect((end as { cost?: { usd: number } }).cost?.usd).toBeCloseTo(calls[0]! + calls[1]!, 10);
  });

  it('matches its golden trace', () => {
    const { events } = importSpans(spansFromOtlpJson(deskApiSpans));
    expect(['matched', 'written']).toContain(
      compareGoldenTrace('import-plain-spans', events, { directory: golden }),
    );
  });

  it('redacts a secret in an attribute', () => {
    const { events } = importSpans(spansFromOtlpJson(deskApiSpans));
    const text = JSON.stringify(events);
    expect(text).not.toContain(deskApiSecret);
    expect(events.at(-1)).toMatchObject({ event: 'run_end', redactions: 1 });
  });

  it('exports plain spans as they came: imported again, the trace is the same', async () => {
    const first = importSpans(spansFromOtlpJson(deskApiSpans)).events;
    const exporter = new InMemorySpanExporter();
    const sink = otlpSink({ exporter, captureContent: true, serviceName: 'desk-api' });
    for (const event of first) sink.write(event);
    await sink.forceFlush();
    const spans = exporter.getFinishedSpans();
    const server = spans.find(span => span.name === 'POST /chat');
    expect(server?.kind).toBe(1); // SpanKind.SERVER
    expect(server?.attributes).toMatchObject({ 'http.route': '/chat' });
    const again = importSpans(
      spansFromOtlpJson(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans))),
    ).events;
    expect(validateTrace(again).problems).toEqual([]);
    expect(spanTree(again)).toEqual(spanTree(first));
    const plain = (events: readonly TraceEvent[]) =>
      events.filter(event => event.event === 'span_start' || event.event === 'span_end');
    expect(plain(again)).toEqual(plain(first));
  });

  it('keeps the spans of a trace with several roots, each under the run', () => {
    const spans = spansFromOtlpJson(deskApiSpans).map(span =>
      span.spanId === spanIdOf(2) ? omitParent(span) : span,
    );
    const { events } = importSpans(spans);
    expect(validateTrace(events).problems).toEqual([]);
    expect(spanTree(events).slice(0, 3)).toEqual(['run desk', '  span POST /chat', '  agent desk']);
  });

  it("names another service's span by its service", () => {
    const spans = spansFromOtlpJson(deskApiSpans).map(span =>
      span.name === 'SELECT orders' ? { ...span, service: 'orders-db' } : span,
    );
    const { events } = importSpans(spans);
    expect(
      events.find(event => event.event === 'span_start' && event.name === 'SELECT orders'),
    ).toMatchObject({ service: 'orders-db' });
  });
});

function omitParent(span: ForeignSpan): ForeignSpan {
  const { parentSpanId: _, ...rest } = span;
  return rest;
}
