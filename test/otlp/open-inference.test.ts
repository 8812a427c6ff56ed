/**
 * `otlpSink({ openInference: true })`: beside the GenAI attributes, the OpenInference ones Arize
 * Phoenix reads and does not derive itself — every GenAI span's kind and session, the run's
 * input and output (content captured only), the project named by `serviceName`. Off, none of
 * them. (`test/backends/phoenix.test.ts` checks what a real Phoenix makes of them.)
 */
import {
  OpenInferenceSpanKind,
  SEMRESATTRS_PROJECT_NAME,
  SemanticConventions as oi,
} from '@arizeai/openinference-semantic-conventions';
import { run } from '@agent-trace/core';
import { otlpSink, semconv } from '@agent-trace/trace/otlp';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { smallDesk } from '../fixtures/agents/small-desk.js';

async function spansOf(options: { openInference?: boolean; captureContent?: boolean }) {
  const exporter = new InMemorySpanExporter();
  const sink = otlpSink({ exporter, serviceName: 'desk', ...options });
  const result = await run(smallDesk(), 'Weather in Paris', { trace: sink, session: 's-1' });
  await sink.forceFlush();
  return { spans: exporter.getFinishedSpans(), output: result.output };
}

const byOperation = (spans: readonly ReadableSpan[], operation: string) =>
  spans.filter(span => span.attributes[semconv.operationName] === operation);

describe('otlpSink with openInference', () => {
  it("names each GenAI span's kind and session, the run's input and output, and the project", async () => {
    const { spans, output } = await spansOf({ openInference: true, captureContent: true });
    const kinds = new Map(
      spans.map(span => [
        String(span.attributes[semconv.operationName]),
        span.attributes[oi.OPENINFERENCE_SPAN_KIND],
      ]),
    );
    expect(Object.fromEntries(kinds)).toEqual({
      invoke_workflow: OpenInferenceSpanKind.CHAIN,
      invoke_agent: OpenInferenceSpanKind.AGENT,
      chat: OpenInferenceSpanKind.LLM,
      execute_tool: OpenInferenceSpanKind.TOOL,
    });
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
