/**
 * What each way of tracing costs a step: the same 100-step run with no sink, a JSONL file,
 * `otlpSink` (its exporter taking every batch and keeping nothing; without and with its metrics),
 * and `otelSink` with no provider registered (off), with a provider whose sampler drops every
 * trace, and with one that records every span (a batch processor, spans dropped at export),
 * without and with a meter provider. Interleaved rounds, median µs a step.
 */
import { agent, run, type TraceSink } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonlSink } from '@agent-trace/trace';
import { otelSink, otlpSink } from '@agent-trace/trace/otlp';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  TracerProvider,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import {
  AggregationTemporality,
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import { addScript, addTool } from './scenario.js';
import { interleaved, ratio } from './measure.js';

/** An exporter that takes every batch and keeps nothing: the export itself is not measured. */
const discard: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
};

/** A metric exporter that takes every export and keeps nothing. */
const discardMetrics: PushMetricExporter = {
  export: (_metrics, done) => done({ code: 0 }),
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
};

/** µs a step in each mode. */
export interface OtelModesResult {
  readonly steps: number;
  readonly none: number;
  readonly jsonl: number;
  readonly otlp: number;
  readonly otlpMetrics: number;
  readonly off: number;
  readonly sampledOut: number;
  readonly recorded: number;
  readonly recordedMetrics: number;
}

/** Measures the modes at `steps` steps, interleaved over `rounds`. */
export async function measureOtelModes(steps = 100, rounds = 7): Promise<OtelModesResult> {
  const sampledOut = new TracerProvider({ sampler: new AlwaysOffSampler() });
  const recorded = new TracerProvider({
    spanProcessors: [new BatchSpanProcessor({ exporter: discard, maxQueueSize: 100_000 })],
  });
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-otel-bench-'));
  const otlp = otlpSink({ exporter: discard, maxQueueSize: 100_000 });
  const otlpMetrics = otlpSink({
    exporter: discard,
    maxQueueSize: 100_000,
    metricExporter: discardMetrics,
  });
  const meterProvider = new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter: discardMetrics })],
  });
  let files = 0;
  const once = (trace?: TraceSink | (() => TraceSink)) => async () => {
    const sink = typeof trace === 'function' ? trace() : trace;
    const model = fakeLLM(addScript(steps));
    const adder = agent({
      name: 'adder',
      model,
      tools: [addTool],
      limits: { maxSteps: steps, maxToolCallsPerTool: steps, maxDuplicateToolCalls: steps },
    });
    await run(adder, 'go', sink === undefined ? {} : { trace: sink });
    if (sink !== undefined && 'close' in sink) await (sink as { close(): Promise<void> }).close();
  };
  const times = await interleaved(
    {
      none: once(),
      jsonl: once(() => jsonlSink(join(folder, `run-${++files}.jsonl`))),
      otlp: once(otlp),
      otlpMetrics: once(otlpMetrics),
      off: once(otelSink()),
      sampledOut: once(otelSink({ tracerProvider: sampledOut })),
      recorded: once(otelSink({ tracerProvider: recorded, meterProvider: false })),
      recordedMetrics: once(otelSink({ tracerProvider: recorded, meterProvider })),
    },
    rounds,
  );
  await recorded.shutdown();
  await otlp.shutdown();
  await otlpMetrics.shutdown();
  await meterProvider.shutdown();
  const per = (ms: number) => (ms * 1000) / steps;
  return {
    steps,
    none: per(times.none),
    jsonl: per(times.jsonl),
    otlp: per(times.otlp),
    otlpMetrics: per(times.otlpMetrics),
    off: per(times.off),
    sampledOut: per(times.sampledOut),
    recorded: per(times.recorded),
    recordedMetrics: per(times.recordedMetrics),
  };
}

/** The benchmark's lines. */
export function formatOtelModes(result: OtelModesResult): string {
  const row = (name: string, micros: number) =>
    `${name.padEnd(46)}${micros.toFixed(1).padStart(8)} µs${ratio(micros / result.none).padStart(10)}`;
  return [
    `${'mode'.padEnd(46)}${'a step'.padStart(11)}${'/ none'.padStart(10)}`,
    row('no sink', result.none),
    row('jsonlSink (a file)', result.jsonl),
    row('otlpSink (batches taken by the exporter)', result.otlp),
    row('otlpSink + its GenAI metrics', result.otlpMetrics),
    row('otelSink, no provider registered (off)', result.off),
    row('otelSink, sampler drops every trace', result.sampledOut),
    row('otelSink, every span recorded (batched)', result.recorded),
    row('otelSink, every span + a meter provider', result.recordedMetrics),
  ].join('\n');
}
