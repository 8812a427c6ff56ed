/**
 * With an OTLP endpoint in the environment, a plain run() exports its spans, with no change to
 * the code; `autoExport: false` and a sink that already exports keep it from exporting twice.
 */
import { agent, run } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { startOtlpReceiver, type OtlpReceiver } from '@agent-trace/testing/otlp';
import { memorySink } from '@agent-trace/trace';
import { environmentOtlpSink, otlpSink } from '@agent-trace/trace/otlp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  process.env.TRACE_OTLP_ENDPOINT = receiver.url;
});
afterAll(async () => {
  await environmentOtlpSink()?.shutdown();
  delete process.env.TRACE_OTLP_ENDPOINT;
  await receiver.close();
});

const greeter = (name: string) =>
  agent({ name, model: fakeLLM([{ text: 'Hello.' }]), instructions: 'Greet.' });

describe('TRACE_OTLP_ENDPOINT', () => {
  it('makes a plain run() export its spans, and the JSONL sink beside it stays as it was', async () => {
    const jsonl = memorySink();
    await run(greeter('plain'), 'Hi');
    await run(greeter('beside'), 'Hi', { trace: jsonl });
    await environmentOtlpSink()?.forceFlush();
    await receiver.waitForSpans(6);
    const names = receiver.spans.map(span => span.name);
    expect(names).toContain('invoke_workflow plain');
    expect(names).toContain('invoke_agent beside');
    const beside = receiver.spans.find(span => span.name === 'invoke_workflow beside')!;
    expect(beside.traceId).toBe(jsonl.events[0]!.trace_id);
    expect(beside.resource['service.name']).toBe('agent-trace');
  });

  it('exports nothing with autoExport: false, and once when the run has its own exporter', async () => {
    await run(greeter('opted_out'), 'Hi', { autoExport: false });
    const own = otlpSink({ endpoint: receiver.url, serviceName: 'own' });
    await run(greeter('own_exporter'), 'Hi', { trace: own });
    await own.shutdown();
    await environmentOtlpSink()?.forceFlush();
    await receiver.waitForSpans(9);
    const names = receiver.spans.map(span => span.name);
    expect(names).not.toContain('invoke_workflow opted_out');
    expect(names.filter(name => name === 'invoke_workflow own_exporter')).toHaveLength(1);
  });
});
