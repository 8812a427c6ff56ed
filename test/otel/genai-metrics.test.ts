/**
 * The GenAI client metrics and agent-trace's own, through the application's meter provider:
 * names, units, the conventions' bucket boundaries and attributes; recorded whether or not the
 * run's trace is sampled.
 */
import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { operationDurationBuckets, otelSink, tokenUsageBuckets } from '@agent-trace/trace/otlp';
import {
  DataPointType,
  MeterProvider,
  MetricReader,
  type HistogramMetricData,
  type MetricData,
  type SumMetricData,
} from '@opentelemetry/sdk-metrics';
import { AlwaysOffSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** A reader the test collects from when it wants. */
class TestReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

async function collect(reader: TestReader): Promise<Map<string, MetricData>> {
  const { resourceMetrics } = await reader.collect();
  return new Map(
    resourceMetrics.scopeMetrics
      .flatMap(scope => scope.metrics)
      .map(metric => [metric.descriptor.name, metric]),
  );
}

async function runGlossary(sink: ReturnType<typeof otelSink>) {
  const lookup = tool({
    name: 'lookup',
    description: 'Look a word up',
    input: z.object({ word: z.string() }),
    execute: ({ word }) => `${word}: a greeting`,
  });
  const model = fakeLLM(
    [
      {
        toolCalls: [{ name: 'lookup', args: { word: 'hello' } }],
        usage: { promptTokens: 30, completionTokens: 5 },
      },
      { text: 'A greeting.', usage: { promptTokens: 50, completionTokens: 4 } },
    ],
    { provider: 'openai.chat', modelId: 'gpt-4o-mini' },
  );
  await run(agent({ name: 'glossary', model, tools: [lookup] }), 'What is hello?', {
    trace: sink,
  });
}

describe('GenAI metrics through otelSink', () => {
  it('records the conventions’ metrics with their units, buckets and attributes', async () => {
    const reader = new TestReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    await runGlossary(otelSink({ meterProvider }));
    const metrics = await collect(reader);

    const duration = metrics.get('gen_ai.client.operation.duration') as HistogramMetricData;
    expect(duration.descriptor.unit).toBe('s');
    expect(duration.dataPointType).toBe(DataPointType.HISTOGRAM);
    expect(duration.dataPoints).toHaveLength(1);
    expect(duration.dataPoints[0]?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
    });
    expect(duration.dataPoints[0]?.value.count).toBe(2);
    expect(duration.dataPoints[0]?.value.buckets.boundaries).toEqual(operationDurationBuckets);

    const tokens = metrics.get('gen_ai.client.token.usage') as HistogramMetricData;
    expect(tokens.descriptor.unit).toBe('{token}');
    const byType = Object.fromEntries(
      tokens.dataPoints.map(point => [point.attributes['gen_ai.token.type'], point.value]),
    );
    expect(byType.input?.sum).toBe(80);
    expect(byType.output?.sum).toBe(9);
    expect(byType.input?.buckets.boundaries).toEqual(tokenUsageBuckets);

    const tools = metrics.get('agent_trace.tool.duration') as HistogramMetricData;
    expect(tools.descriptor.unit).toBe('s');
    expect(tools.dataPoints.map(point => point.attributes)).toEqual([
      { 'gen_ai.tool.name': 'lookup' },
    ]);

    const runs = metrics.get('agent_trace.runs') as SumMetricData;
    expect(runs.descriptor.unit).toBe('{run}');
    expect(runs.dataPoints.map(point => [point.attributes, point.value])).toEqual([
      [{ 'agent_trace.stop_reason': 'completed', 'gen_ai.workflow.name': 'glossary' }, 1],
    ]);
  });

  it('records metrics for a run whose trace the sampler drops', async () => {
    const reader = new TestReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const tracerProvider = new TracerProvider({ sampler: new AlwaysOffSampler() });
    await runGlossary(otelSink({ meterProvider, tracerProvider }));
    const metrics = await collect(reader);
    expect((metrics.get('agent_trace.runs') as SumMetricData).dataPoints[0]?.value).toBe(1);
    expect(
      (metrics.get('gen_ai.client.operation.duration') as HistogramMetricData).dataPoints[0]?.value
        .count,
    ).toBe(2);
  });

  it('records nothing with meterProvider: false', () => {
    const sink = otelSink({ meterProvider: false });
    expect(sink.live).toBeUndefined();
  });
});
