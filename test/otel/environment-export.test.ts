/**
 * With the environment's export registered (`@agent-trace/trace/register`, or
 * `registerEnvironmentExport()`) and an OTLP endpoint set, a plain run() exports its spans with no
 * change to its code; `autoExport: false` and a sink that already exports keep it from exporting
 * twice; core itself neither reads the environment nor loads the exporter.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { agent, run } from '@agent-trace/core';
import { setDefaultExport } from '@agent-trace/core/record';
import { fakeLLM } from '@agent-trace/testing';
import { startOtlpReceiver, type OtlpReceiver } from '@agent-trace/testing/otlp';
import { memorySink } from '@agent-trace/trace';
import { environmentOtlpSink, otlpSink, registerEnvironmentExport } from '@agent-trace/trace/otlp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  process.env.TRACE_OTLP_ENDPOINT = receiver.url;
});
afterAll(async () => {
  setDefaultExport(undefined);
  await environmentOtlpSink()?.shutdown();
  delete process.env.TRACE_OTLP_ENDPOINT;
  await receiver.close();
});

const greeter = (name: string) =>
  agent({ name, model: fakeLLM([{ text: 'Hello.' }]), instructions: 'Greet.' });

describe('TRACE_OTLP_ENDPOINT', () => {
  it('alone exports nothing: core reads no environment; the export is registered', async () => {
    await run(greeter('unregistered'), 'Hi');
    registerEnvironmentExport();
    await run(greeter('registered'), 'Hi');
    await environmentOtlpSink()?.forceFlush();
    await receiver.waitForSpans(3);
    const names = receiver.spans.map(span => span.name);
    expect(names).toContain('invoke_workflow registered');
    expect(names).not.toContain('invoke_workflow unregistered');
  });

  it('makes a plain run() export its spans, and the JSONL sink beside it stays as it was', async () => {
    const jsonl = memorySink();
    await run(greeter('plain'), 'Hi');
    await run(greeter('beside'), 'Hi', { trace: jsonl });
    await environmentOtlpSink()?.forceFlush();
    await receiver.waitForSpans(9);
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
    await receiver.waitForSpans(12);
    const names = receiver.spans.map(span => span.name);
    expect(names).not.toContain('invoke_workflow opted_out');
    expect(names.filter(name => name === 'invoke_workflow own_exporter')).toHaveLength(1);
  });
});

describe('node --import @agent-trace/trace/register', () => {
  it('exports a plain run of an unchanged program to the endpoint in the environment', async () => {
    const before = receiver.spans.length;
    const program = [
      "import { agent, run } from '@agent-trace/core';",
      "import { fakeLLM } from '@agent-trace/testing';",
      "await run(agent({ name: 'registered_process', model: fakeLLM([{ text: 'Hi.' }]) }), 'Hi');",
    ].join('\n');
    await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        '@agent-trace/trace/register',
        '--input-type=module',
        '-e',
        program,
      ],
      { env: { ...process.env, TRACE_OTLP_ENDPOINT: receiver.url } },
    );
    await receiver.waitForSpans(before + 3);
    expect(receiver.spans.map(span => span.name)).toContain('invoke_workflow registered_process');
  });
});
