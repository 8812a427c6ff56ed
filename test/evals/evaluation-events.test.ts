/**
 * An eval's scores where the traces are: each score of a case is a `gen_ai.evaluation.result`
 * event in the context of the case's `invoke_agent` span, sent by the default export's OTLP sink
 * to the same collector as the spans, and by `otelSink` through the application's logger.
 */
import { setDefaultExport } from '@agent-trace/core/record';
import { exactMatch, noErrors, runEval, scorer } from '@agent-trace/evals';
import { otelSink, otlpSink } from '@agent-trace/trace/otlp';
import { logs } from '@opentelemetry/api-logs';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { afterEach, describe, expect, it } from 'vitest';
import { receiver } from '../otlp/otlp-fixtures.js';
import { sumsEval } from '../fixtures/evals/sums.js';

const sums = sumsEval([exactMatch(), noErrors(), scorer('brevity', () => 0.5)]);

afterEach(() => setDefaultExport(undefined));

describe('eval scores as evaluation events', () => {
  it.each(['grpc', 'http'] as const)(
    'are sent with the spans (%s), each on the invoke_agent span of the run it judges',
    async protocol => {
      const collector = await receiver();
      const sink = otlpSink({
        endpoint: protocol === 'grpc' ? collector.url : collector.httpUrl,
        protocol,
        serviceName: 'evals',
      });
      setDefaultExport({ sinks: () => [sink] });
      const results = await runEval(sums);
      await sink.shutdown();
      const received = await collector.waitForLogs(6);
      expect(received.map(log => log.eventName)).toEqual(
        Array.from({ length: 6 }, () => 'gen_ai.evaluation.result'),
      );
      const agentSpans = collector.spans.filter(span => span.name === 'invoke_agent adder');
      expect(agentSpans).toHaveLength(2);
      for (const log of received) {
        const judged = agentSpans.find(span => span.spanId === log.spanId);
        expect(judged?.traceId).toBe(log.traceId);
        expect(log.resource['service.name']).toBe('evals');
      }
      const exact = received.filter(log => log.attributes['gen_ai.evaluation.name'] === 'exact');
      expect(
        exact
          .map(log => [
            log.attributes['gen_ai.evaluation.score.value'],
            log.attributes['gen_ai.evaluation.score.label'],
          ])
          .sort(),
      ).toEqual([
        [0, 'fail'],
        [1, 'pass'],
      ]);
      const wrong = results.cases.find(each => each.id === 'wrong')!;
      expect(
        exact.find(log => log.attributes['gen_ai.evaluation.score.value'] === 0)?.attributes[
          'gen_ai.evaluation.explanation'
        ],
      ).toBe(wrong.scores.exact!.reason);
      // A partial score has no label.
      const brevity = received.find(log => log.attributes['gen_ai.evaluation.name'] === 'brevity')!;
      expect(brevity.attributes['gen_ai.evaluation.score.label']).toBeUndefined();
    },
  );

  it("go to an OTel sink given in the eval's own options, with the cases' spans", async () => {
    const collector = await receiver();
    const sink = otlpSink({ endpoint: collector.url, serviceName: 'evals' });
    await runEval(sums, { runOptions: { trace: sink } });
    await sink.shutdown();
    const received = await collector.waitForLogs(6);
    const agents = new Set(
      collector.spans.filter(span => span.name === 'invoke_agent adder').map(span => span.spanId),
    );
    expect(agents.size).toBe(2);
    expect(received.every(log => agents.has(log.spanId))).toBe(true);
  });

  it("go through the application's logger provider with otelSink", async () => {
    const exporter = new InMemoryLogRecordExporter();
    const provider = new LoggerProvider({
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    logs.setGlobalLoggerProvider(provider);
    try {
      setDefaultExport({ sinks: () => [otelSink()] });
      await runEval(sums);
      const records = exporter.getFinishedLogRecords();
      expect(records).toHaveLength(6);
      expect(new Set(records.map(record => record.eventName))).toEqual(
        new Set(['gen_ai.evaluation.result']),
      );
      expect(records.every(record => record.spanContext?.spanId !== undefined)).toBe(true);
    } finally {
      logs.disable();
      await provider.shutdown();
    }
  });
});
