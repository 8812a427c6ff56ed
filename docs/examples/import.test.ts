// docs/guide/import.md: GenAI spans, as the Collector's file exporter writes them, back into a trace.
import { agent, run } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { validateTrace } from '@agent-trace/trace';
import { importSpans, spansFromOtlpJson } from '@agent-trace/trace/import';
import { otlpSink } from '@agent-trace/trace/otlp';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('reads the spans of an OTLP JSON file back into a run', async () => {
  // A run exported as spans, written as the Collector's file exporter writes them.
  const exporter = new InMemorySpanExporter();
  const sink = otlpSink({ exporter, captureContent: true });
  await run(agent({ name: 'greeter', model: fakeLLM([{ text: 'Hello!' }]) }), 'Say hello', {
    trace: sink,
  });
  await sink.forceFlush();
  const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-guide-import-')), 'spans.json');
  writeFileSync(file, JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans()) ?? '');

  const { events, plainSpans } = importSpans(spansFromOtlpJson(readFileSync(file, 'utf8'), file));

  expect(plainSpans).toEqual([]);
  expect(validateTrace(events).problems).toEqual([]);
  expect(events.at(-1)).toMatchObject({ event: 'run_end', output: 'Hello!' });
});
