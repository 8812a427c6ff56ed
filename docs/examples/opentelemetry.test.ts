// docs/guide/opentelemetry.md: a run's spans to a collector over OTLP, beside its JSONL trace.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { startOtlpReceiver } from '@agent-trace/testing/otlp';
import { jsonlSink as fileSink } from '@agent-trace/trace';
import { otlpSink } from '@agent-trace/trace/otlp';
import { expect, it } from 'vitest';
import { supportDesk } from './support-agent.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-trace-otlp-guide-'));
const jsonlSink = (path: string) => fileSink(join(dir, path));

it('sends the run to a collector and writes its file, the last spans out at shutdown', async () => {
  const collector = await startOtlpReceiver(); // a real OTLP/gRPC server on 127.0.0.1
  const endpoint = collector.url;
  const desk = supportDesk({
    support: fakeLLM([{ text: 'Order 7 was delivered.' }]),
    billing: fakeLLM([]),
  });
  const input = 'Where is order 7?';

  const otlp = otlpSink({ endpoint }); // one per process; e.g. 'http://localhost:4317'
  // or: otlpSinkFromEnvironment() — undefined when no endpoint is set
  await run(desk, input, { trace: [jsonlSink('traces/run.jsonl'), otlp] });
  // … more runs …
  await otlp.shutdown(); // spans go out in the background: let the last ones leave

  expect(collector.spans.map(span => span.name).sort()).toEqual([
    'chat fake-model',
    'invoke_agent support',
    'invoke_workflow support',
  ]);
  await collector.close();
});
