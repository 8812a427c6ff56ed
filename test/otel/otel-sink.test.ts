/**
 * otelSink with a tracer provider of its own: what it emits when sampled, that a sampled-out run
 * makes no spans while its tools still see its (not sampled) context, and that it is off without
 * a provider.
 */
import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { otelSink } from '@agent-trace/trace/otlp';
import { context, propagation, trace, TraceFlags, type SpanContext } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AlwaysOffSampler,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  context.disable();
  propagation.disable();
});

/** Runs a one-tool agent, recording the span context its tool ran in. */
async function runAgent(sink: ReturnType<typeof otelSink>) {
  const seen: (SpanContext | undefined)[] = [];
  const headers: Readonly<Record<string, string>>[] = [];
  const lookup = tool({
    name: 'lookup',
    description: 'Look a word up',
    input: z.object({ word: z.string() }),
    execute: ({ word }, { traceHeaders }) => {
      seen.push(trace.getActiveSpan()?.spanContext());
      headers.push(traceHeaders?.() ?? {});
      return `${word}: a greeting`;
    },
  });
  const model = fakeLLM([
    { toolCalls: [{ name: 'lookup', args: { word: 'hello' } }] },
    { text: 'It is a greeting.' },
  ]);
  const jsonl = memorySink();
  await run(agent({ name: 'glossary', model, tools: [lookup] }), 'What is hello?', {
    trace: [jsonl, sink],
  });
  expect(validateTrace(jsonl.events).problems).toEqual([]);
  return { seen, headers, events: jsonl.events };
}

function provider(sampled: boolean) {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
    ...(sampled ? {} : { sampler: new AlwaysOffSampler() }),
  });
  return { exporter, tracerProvider };
}

describe('otelSink', () => {
  it("emits the run's spans with the GenAI names, parents and attributes, tools inside execute_tool", async () => {
    const { exporter, tracerProvider } = provider(true);
    const { seen, headers, events } = await runAgent(otelSink({ tracerProvider }));
    await tracerProvider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const named = (name: string) => spans.find(span => span.name === name)!;
    expect(spans.map(span => span.name).sort()).toEqual([
      'chat fake-model',
      'chat fake-model',
      'execute_tool lookup',
      'invoke_agent glossary',
      'invoke_workflow glossary',
    ]);
    const runSpan = named('invoke_workflow glossary');
    expect(runSpan.spanContext().traceId).toBe(events[0]!.trace_id);
    expect(named('invoke_agent glossary').parentSpanContext?.spanId).toBe(
      runSpan.spanContext().spanId,
    );
    const toolSpan = named('execute_tool lookup');
    expect(toolSpan.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 'call_1_1',
      'agent_trace.attempt': 1,
    });
    expect(toolSpan.attributes['agent_trace.seq']).toBeUndefined();
    expect(seen).toEqual([toolSpan.spanContext()]);
    // What a tool sends along (an MCP request's _meta) is the application's context of its span.
    const { traceId, spanId } = toolSpan.spanContext();
    expect(headers).toEqual([{ traceparent: `00-${traceId}-${spanId}-01` }]);
    const chat = spans.find(span => span.name === 'chat fake-model')!;
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'fake-model',
    });
    expect(typeof chat.attributes['gen_ai.usage.input_tokens']).toBe('number');
  });

  it('makes no spans for a run its sampler drops; its tools still run in its (not sampled) trace', async () => {
    const { exporter, tracerProvider } = provider(false);
    const { seen, events } = await runAgent(otelSink({ tracerProvider }));
    await tracerProvider.forceFlush();
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.traceFlags).toBe(TraceFlags.NONE);
    expect(seen[0]?.traceId).toBe(events[0]!.trace_id);
  });

  it('is off with no provider registered: no live spans, the run as without it', async () => {
    const sink = otelSink();
    expect(sink.live).toBeUndefined();
    const { seen } = await runAgent(sink);
    expect(seen).toEqual([undefined]);
  });
});
