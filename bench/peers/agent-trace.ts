/**
 * agent-trace under the shared scenario: no sink, a JSONL sink, an OTLP sink to an in-process
 * receiver, and `otelSink` through an application's OpenTelemetry SDK.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type TraceSink } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { startOtlpReceiver } from '@agent-trace/testing/otlp';
import { jsonlSink } from '@agent-trace/trace';
import { otelSink, otlpSink } from '@agent-trace/trace/otlp';
import { appTracerProvider } from './app-sdk.js';
import { adderAgent, addReActScript, addScript } from '../scenario.js';
import { expectDone, type Subject } from './subject.js';

function subject(
  name: string,
  makeSink: () => Promise<{ sink: TraceSink | undefined; close: () => Promise<void> }>,
  close?: () => Promise<void>,
  react = false,
): Subject {
  return {
    name,
    kind: 'agent-trace',
    async prepare(steps) {
      const { sink, close: closeSink } = await makeSink();
      const subjectAgent = react
        ? adderAgent(fakeLLM(addReActScript(steps)), steps, 'react')
        : adderAgent(fakeLLM(addScript(steps)), steps);
      return {
        async run() {
          const result = await run(subjectAgent, 'go', sink === undefined ? {} : { trace: sink });
          expectDone('agent-trace', result.output);
          return result;
        },
        finish: closeSink,
      };
    },
    ...(close === undefined ? {} : { close }),
  };
}

/** agent-trace with no sink: the loop alone. */
export const agentTraceBare = (): Subject =>
  subject('agent-trace', () =>
    Promise.resolve({ sink: undefined, close: () => Promise.resolve() }),
  );

/** agent-trace in ReAct text mode, no sink: each step's answer parsed, its result sent as text. */
export const agentTraceReAct = (): Subject =>
  subject(
    'agent-trace, ReAct mode',
    () => Promise.resolve({ sink: undefined, close: () => Promise.resolve() }),
    undefined,
    true,
  );

/** agent-trace writing a JSONL trace (a fresh file per run). */
export function agentTraceJsonl(): Subject {
  const directory = mkdtempSync(join(tmpdir(), 'agent-trace-bench-'));
  let runs = 0;
  return subject(
    'agent-trace + JSONL',
    () => {
      const path = join(directory, `run-${runs++}.jsonl`);
      const sink = jsonlSink(path);
      return Promise.resolve({
        sink,
        close: async () => {
          await sink.close();
          rmSync(path, { force: true });
        },
      });
    },
    () => {
      rmSync(directory, { recursive: true, force: true });
      return Promise.resolve();
    },
  );
}

/** agent-trace exporting over OTLP/gRPC to an in-process receiver (one sink, as an app has). */
export async function agentTraceOtlp(): Promise<Subject> {
  const receiver = await startOtlpReceiver();
  const sink = otlpSink({ endpoint: receiver.url });
  return subject(
    'agent-trace + OTLP',
    () => Promise.resolve({ sink, close: () => Promise.resolve() }),
    async () => {
      await sink.shutdown();
      await receiver.close();
    },
  );
}

/** agent-trace emitting through the application's OpenTelemetry SDK (`otelSink`, every span recorded). */
export function agentTraceAppSdk(): Subject {
  const tracerProvider = appTracerProvider();
  const sink = otelSink({ tracerProvider, meterProvider: false });
  return subject(
    'agent-trace + app OpenTelemetry SDK',
    () => Promise.resolve({ sink, close: () => Promise.resolve() }),
    () => tracerProvider.shutdown(),
  );
}
