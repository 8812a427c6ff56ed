/**
 * `otlpSink({ openInference: true })`: beside the GenAI attributes, the OpenInference ones Arize
 * Phoenix reads and does not derive itself — every GenAI span's kind and session, the run's
 * input and output (content captured only), the project named by `serviceName`. Off, none of
 * them. The same from `otelSink`, from `agent-trace export --open-inference`, and from
 * `TRACE_OTLP_OPENINFERENCE`. (`test/backends/phoenix.test.ts` checks what a real Phoenix makes
 * of them.)
 */
import {
  OpenInferenceSpanKind,
  SEMRESATTRS_PROJECT_NAME,
  SemanticConventions as oi,
} from '@arizeai/openinference-semantic-conventions';
import { join } from 'node:path';
import { ConfigurationError, run } from '@agent-trace/core';
import { jsonlSink } from '@agent-trace/trace';
import { otelSink, otlpSink, semconv } from '@agent-trace/trace/otlp';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { smallDesk } from '../fixtures/agents/small-desk.js';
import { cli } from '../support/cli.js';
import { directory, receiver } from './otlp-fixtures.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

async function spansOf(options: { openInference?: boolean; captureContent?: boolean }) {
  const exporter = new InMemorySpanExporter();
  const sink = otlpSink({ exporter, serviceName: 'desk', ...options });
  const result = await run(smallDesk(), 'Weather in Paris', { trace: sink, session: 's-1' });
  await sink.forceFlush();
  return { spans: exporter.getFinishedSpans(), output: result.output };
}

/** Each span's OpenInference kind, by its GenAI operation. */
function kindsOf(spans: readonly { readonly attributes: Readonly<Record<string, unknown>> }[]) {
  return Object.fromEntries(
    spans.map(span => [
      String(span.attributes[semconv.operationName]),
      span.attributes[oi.OPENINFERENCE_SPAN_KIND],
    ]),
  );
}

const allKinds = {
  invoke_workflow: OpenInferenceSpanKind.CHAIN,
  invoke_agent: OpenInferenceSpanKind.AGENT,
  chat: OpenInferenceSpanKind.LLM,
  execute_tool: OpenInferenceSpanKind.TOOL,
};

const byOperation = (spans: readonly ReadableSpan[], operation: string) =>
  spans.filter(span => span.attributes[semconv.operationName] === operation);

describe('otlpSink with openInference', () => {
  it("names each GenAI span's kind and session, the run's input and output, and the project", async () => {
    const { spans, output } = await spansOf({ openInference: true, captureContent: true });
    expect(kindsOf(spans)).toEqual(allKinds);
    for (const span of spans) expect(span.attributes[oi.SESSION_ID]).toBe('s-1');
    const [root] = byOperation(spans, 'invoke_workflow');
    expect(root!.attributes).toMatchObject({
      [oi.INPUT_VALUE]: 'Weather in Paris',
      [oi.INPUT_MIME_TYPE]: 'text/plain',
      [oi.OUTPUT_VALUE]: output,
    });
    expect(root!.resource.attributes[SEMRESATTRS_PROJECT_NAME]).toBe('desk');
    // The GenAI attributes stay whole beside them.
    expect(byOperation(spans, 'chat')[0]!.attributes[semconv.requestModel]).toBe('fake-model');
  });

  it('without captured content, gives the run no input or output', async () => {
    const { spans } = await spansOf({ openInference: true, captureContent: false });
    const [root] = byOperation(spans, 'invoke_workflow');
    expect(root!.attributes[oi.OPENINFERENCE_SPAN_KIND]).toBe(OpenInferenceSpanKind.CHAIN);
    expect(root!.attributes[oi.INPUT_VALUE]).toBeUndefined();
  });

  it('off (the default), adds none of them', async () => {
    const { spans } = await spansOf({ captureContent: true });
    for (const span of spans) {
      expect(
        Object.keys(span.attributes).filter(key => !/^(gen_ai|agent_trace|error)\./.test(key)),
      ).toEqual([]);
      expect(span.resource.attributes[SEMRESATTRS_PROJECT_NAME]).toBeUndefined();
    }
  });
});

describe('openInference from the environment, otelSink and agent-trace export', () => {
  it('TRACE_OTLP_OPENINFERENCE=true turns it on; false or unset leaves it off; the option wins', async () => {
    vi.stubEnv('TRACE_OTLP_OPENINFERENCE', 'true');
    expect(kindsOf((await spansOf({})).spans)).toEqual(allKinds);
    const overridden = (await spansOf({ openInference: false })).spans;
    expect(overridden.map(span => span.attributes[oi.OPENINFERENCE_SPAN_KIND])).toEqual(
      overridden.map(() => undefined),
    );
    vi.stubEnv('TRACE_OTLP_OPENINFERENCE', 'FALSE');
    const off = (await spansOf({})).spans;
    expect(off[0]!.resource.attributes[SEMRESATTRS_PROJECT_NAME]).toBeUndefined();
    expect(off.some(span => span.attributes[oi.OPENINFERENCE_SPAN_KIND] !== undefined)).toBe(false);
  });

  it('an unknown TRACE_OTLP_OPENINFERENCE is a configuration error that names it and the fix', () => {
    vi.stubEnv('TRACE_OTLP_OPENINFERENCE', 'yes');
    const make = () => otlpSink({ exporter: new InMemorySpanExporter() });
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(/TRACE_OTLP_OPENINFERENCE is 'yes': set it to true .* or false/);
  });

  it('agent-trace export says so on stderr and exits 2, sending nothing', async () => {
    vi.stubEnv('TRACE_OTLP_OPENINFERENCE', 'yes');
    const collector = await receiver();
    const { code, stderr } = await cli(['export', 'traces/none.jsonl', '--otlp', collector.url]);
    expect({ code, stderr }).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^TRACE_OTLP_OPENINFERENCE is 'yes': set it to true/),
    });
    expect(collector.spans).toEqual([]);
  });

  it("otelSink writes them on the application's spans", async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    const sink = otelSink({ tracerProvider, openInference: true, captureContent: true });
    const result = await run(smallDesk(), 'Weather in Paris', { trace: sink, session: 's-2' });
    const spans = exporter.getFinishedSpans();
    expect(kindsOf(spans)).toEqual(allKinds);
    for (const span of spans) expect(span.attributes[oi.SESSION_ID]).toBe('s-2');
    expect(byOperation(spans, 'invoke_workflow')[0]!.attributes).toMatchObject({
      [oi.INPUT_VALUE]: 'Weather in Paris',
      [oi.OUTPUT_VALUE]: result.output,
    });
    await tracerProvider.shutdown();
  });

  it('agent-trace export --open-inference --service-name sends them, under that project', async () => {
    const path = join(directory, 'open-inference.jsonl');
    const file = jsonlSink(path);
    await run(smallDesk(), 'Weather in Paris', { trace: file, session: 's-3' });
    await file.close();
    const collector = await receiver();
    const flags = ['--open-inference', '--service-name', 'desk'];
    const { code } = await cli(['export', path, '--otlp', collector.url, ...flags]);
    expect(code).toBe(0);
    expect(kindsOf(collector.spans)).toEqual(allKinds);
    for (const span of collector.spans) {
      expect(span.attributes[oi.SESSION_ID]).toBe('s-3');
      expect(span.resource).toMatchObject({
        'service.name': 'desk',
        [SEMRESATTRS_PROJECT_NAME]: 'desk',
      });
    }
    const plain = await receiver();
    expect((await cli(['export', path, '--otlp', plain.url])).code).toBe(0);
    expect(
      plain.spans.some(span => span.attributes[oi.OPENINFERENCE_SPAN_KIND] !== undefined),
    ).toBe(false);
  });
});
