/**
 * otlpSink's own metrics, for services with no OpenTelemetry SDK: the GenAI metrics over OTLP to
 * the same collector (gRPC and HTTP/protobuf), decoded by the in-process receiver.
 */
import { agent, run, steppingClock, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import type { OtlpReceiver } from '@agent-trace/testing/otlp';
import { jsonlSink } from '@agent-trace/trace';
import { operationDurationBuckets, otlpSink, tokenUsageBuckets } from '@agent-trace/trace/otlp';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cli } from '../support/cli.js';
import { directory, receiver } from './otlp-fixtures.js';

const lookup = tool({
  name: 'lookup',
  description: 'Look a word up',
  input: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a greeting`,
});

const glossary = () =>
  agent({
    name: 'glossary',
    model: fakeLLM(
      [
        {
          toolCalls: [{ name: 'lookup', args: { word: 'hello' } }],
          usage: { promptTokens: 30, completionTokens: 5 },
        },
        { text: 'A greeting.', usage: { promptTokens: 50, completionTokens: 4 } },
      ],
      { provider: 'openai.chat', modelId: 'gpt-4o-mini' },
    ),
    tools: [lookup],
  });

const chat = {
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': 'gpt-4o-mini',
};

async function expectGlossaryMetrics(collector: OtlpReceiver, runs: number): Promise<void> {
  const duration = await collector.waitForMetric('gen_ai.client.operation.duration');
  expect(duration).toMatchObject({ unit: 's', kind: 'histogram', temporality: 'CUMULATIVE' });
  expect(duration.resource['service.name']).toBe('glossary-service');
  expect(duration.points).toHaveLength(1);
  expect(duration.points[0]).toMatchObject({ attributes: chat, count: 2 * runs });
  expect(duration.points[0]?.explicitBounds).toEqual(operationDurationBuckets);

  const tokens = await collector.waitForMetric('gen_ai.client.token.usage');
  expect(tokens).toMatchObject({ unit: '{token}', kind: 'histogram' });
  expect(tokens.points[0]?.explicitBounds).toEqual(tokenUsageBuckets);
  const byType = Object.fromEntries(
    tokens.points.map(point => [point.attributes['gen_ai.token.type'], point]),
  );
  expect(byType.input).toMatchObject({ attributes: { ...chat }, count: 2 * runs, sum: 80 * runs });
  expect(byType.output).toMatchObject({ count: 2 * runs, sum: 9 * runs });

  const toolDuration = await collector.waitForMetric('agent_trace.tool.duration');
  expect(toolDuration).toMatchObject({ unit: 's', kind: 'histogram' });
  expect(toolDuration.points[0]).toMatchObject({
    attributes: { 'gen_ai.tool.name': 'lookup' },
    count: runs,
  });

  const ended = await collector.waitForMetric('agent_trace.runs');
  expect(ended).toMatchObject({ unit: '{run}', kind: 'sum', monotonic: true });
  expect(ended.points).toEqual([
    expect.objectContaining({
      attributes: { 'agent_trace.stop_reason': 'completed', 'gen_ai.workflow.name': 'glossary' },
      value: runs,
    }),
  ]);
}

describe('otlpSink metrics', () => {
  it('sends the GenAI metrics over gRPC to the same collector at shutdown', async () => {
    const collector = await receiver();
    const sink = otlpSink({ endpoint: collector.url, serviceName: 'glossary-service' });
    for (let index = 0; index < 3; index++)
      await run(glossary(), 'What is hello?', { trace: sink, clock: steppingClock() });
    expect(collector.metricRequests).toBe(0); // the interval is a minute
    await sink.shutdown();
    await expectGlossaryMetrics(collector, 3);
  });

  it('sends them over HTTP/protobuf to /v1/metrics, every metricsIntervalMs', async () => {
    const collector = await receiver();
    const sink = otlpSink({
      endpoint: collector.httpUrl.replace('/v1/traces', ''),
      protocol: 'http',
      serviceName: 'glossary-service',
      metricsIntervalMs: 50,
    });
    await run(glossary(), 'What is hello?', { trace: sink, clock: steppingClock() });
    // No flush: the reader's own interval sends them.
    await expectGlossaryMetrics(collector, 1);
    expect(collector.metricRequests).toBeGreaterThan(0);
    await sink.shutdown();
  });

  it('sends none with metrics: false, nor from `agent-trace export` of a recorded file', async () => {
    const collector = await receiver();
    const path = join(directory, 'metrics-off.jsonl');
    const file = jsonlSink(path);
    const sink = otlpSink({ endpoint: collector.url, metrics: false });
    await run(glossary(), 'What is hello?', { trace: [file, sink] });
    await file.close();
    await sink.shutdown();
    const { code } = await cli(['export', path, '--otlp', collector.url]);
    expect(code).toBe(0);
    expect(collector.spans.length).toBeGreaterThan(0);
    expect(collector.metricRequests).toBe(0);
  });

  it('a collector that is down costs the metrics, not the run, and shutdown stays bounded', async () => {
    const collector = await receiver();
    await collector.close();
    const sink = otlpSink({ endpoint: collector.url, flushTimeoutMs: 200, exportTimeoutMs: 150 });
    const result = await run(glossary(), 'What is hello?', { trace: sink });
    expect(result.stopReason).toBe('completed');
    const started = Date.now();
    await sink.shutdown();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
