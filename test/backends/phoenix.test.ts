/**
 * A real Arize Phoenix, installed from PyPI, started on 127.0.0.1: the runs the Jaeger tests send
 * (the demo's multi-agent run, a handoff, a scored run, a run of each bridge) are exported to it
 * over OTLP gRPC and HTTP with `openInference: true`, and read back through its REST API: every span under its parent, shown as what it is (the run a chain, agents, LLM calls
 * with their messages and tokens, tools), the run's input and output on its trace, filed under
 * the project the service names. The same from a recorded file (`agent-trace export
 * --open-inference`) and from `otelSink` through the application's own tracer provider. Its UI
 * shows the trace in Chromium.
 */
import {
  SEMRESATTRS_PROJECT_NAME,
  SemanticConventions as oi,
} from '@arizeai/openinference-semantic-conventions';
import { run } from '@agent-trace/core';
import { memorySink } from '@agent-trace/trace';
import { otelSink, semconv } from '@agent-trace/trace/otlp';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { findChromium, launchBrowser } from '../support/browser.js';
import { cli } from '../support/cli.js';
import { exportShape, type ExportedShape } from './support/exported-shape.js';
import {
  phoenixTracePage,
  readPhoenixTrace,
  startPhoenix,
  type Phoenix,
  type PhoenixSpan,
} from './support/phoenix.js';
import { smallDesk } from '../fixtures/agents/small-desk.js';
import { shapes } from './support/shapes.js';

let phoenix: Phoenix;
beforeAll(async () => {
  phoenix = await startPhoenix();
}, 600_000);
afterAll(() => phoenix?.stop());
afterEach(() => {
  vi.unstubAllEnvs();
});

const kinds: Record<string, string> = {
  invoke_workflow: 'CHAIN',
  invoke_agent: 'AGENT',
  chat: 'LLM',
  execute_tool: 'TOOL',
};

const demo = shapes.find(shape => shape.name === 'demo')!;

/** What differs between the spans sent and what Phoenix shows of them. */
function phoenixProblems(exported: ExportedShape, stored: readonly PhoenixSpan[]): string[] {
  const byId = new Map(stored.map(span => [span.context.span_id, span]));
  const problems: string[] = [];
  for (const sent of exported.sent) {
    const where = `span ${sent.name}`;
    const found = byId.get(sent.spanContext().spanId);
    if (found === undefined) {
      problems.push(`${where} is missing`);
      continue;
    }
    if (found.parent_id !== (sent.parentSpanContext?.spanId ?? null))
      problems.push(`${where}: parent ${String(found.parent_id)}`);
    const kind = kinds[String(sent.attributes[semconv.operationName])];
    if (found.span_kind !== kind)
      problems.push(`${where}: shown as ${found.span_kind}, not ${kind}`);
    if (kind !== 'LLM') continue;
    const tokens = found.attributes[oi.LLM_TOKEN_COUNT_PROMPT];
    if (tokens !== sent.attributes[semconv.inputTokens])
      problems.push(`${where}: prompt tokens ${String(tokens)}`);
    for (const messages of [oi.LLM_INPUT_MESSAGES, oi.LLM_OUTPUT_MESSAGES])
      if (found.attributes[`${messages}.0.${oi.MESSAGE_ROLE}`] === undefined)
        problems.push(`${where}: no ${messages}`);
  }
  if (stored.length !== exported.sent.length)
    problems.push(`Phoenix holds ${stored.length} spans of the ${exported.sent.length} sent`);
  return problems;
}

/**
 * Reads the trace back from `project` and checks it shows what was sent: every span under its
 * parent as its kind, and the run's span a chain with its input, output and session.
 */
async function expectShownAsSent(project: string, exported: ExportedShape): Promise<void> {
  const stored = await readPhoenixTrace(
    phoenix.url,
    project,
    exported.traceId,
    exported.sent.length,
  );
  expect(phoenixProblems(exported, stored)).toEqual([]);
  const root = stored.find(span => span.parent_id === null)!;
  const start = exported.events.find(event => event.event === 'run_start')!;
  const end = exported.events.find(event => event.event === 'run_end')!;
  expect(root.span_kind).toBe('CHAIN');
  expect(root.attributes[oi.INPUT_VALUE]).toBe(start.event === 'run_start' ? start.input : '');
  const output = end.event === 'run_end' ? end.output : undefined;
  expect(root.attributes[oi.OUTPUT_VALUE]).toBe(
    typeof output === 'string' ? output : JSON.stringify(output),
  );
  expect(root.attributes[oi.SESSION_ID]).toBe(start.session);
}

describe.each(['grpc', 'http'] as const)('Phoenix, over OTLP %s', protocol => {
  it.each(shapes)(
    '$name: every span under its parent, shown as what it is, with inputs, outputs and tokens',
    async shape => {
      const project = `agent-trace-${shape.name}-${protocol}`;
      const endpoint = protocol === 'grpc' ? phoenix.otlpGrpc : phoenix.url;
      const exported = await exportShape(shape.name, shape.record, {
        endpoint,
        protocol,
        openInference: true,
        serviceName: project,
      });
      await expectShownAsSent(project, exported);
    },
  );
});

describe('the Phoenix check, broken on purpose', () => {
  it('names a span dropped and a model call shown under the wrong parent', async () => {
    const grpc = new OTLPTraceExporter({ url: phoenix.otlpGrpc });
    // The spans on their way: one tool span left out, every model call under a span not its agent's.
    const faulty: SpanExporter = {
      export: (spans, done) =>
        grpc.export(
          spans
            .filter(span => !span.name.startsWith('execute_tool weather'))
            .map(span =>
              span.name.startsWith('chat')
                ? {
                    ...span,
                    parentSpanContext: { ...span.spanContext(), spanId: 'ffffffffffffffff' },
                  }
                : span,
            ),
          done,
        ),
      shutdown: () => grpc.shutdown(),
      forceFlush: () => grpc.forceFlush(),
    };
    const project = 'agent-trace-faults';
    const exported = await exportShape('handoff', shapes[1]!.record, {
      exporter: faulty,
      openInference: true,
      serviceName: project,
    });
    const stored = await readPhoenixTrace(
      phoenix.url,
      project,
      exported.traceId,
      exported.sent.length,
      3_000,
    );
    const problems = phoenixProblems(exported, stored);
    expect(problems).toContain('span execute_tool weather is missing');
    expect(
      problems.filter(problem => /^span chat fake-model: parent f{16}$/.test(problem)),
    ).not.toEqual([]);
  });
});

describe('Phoenix, without the OpenInference option', () => {
  it("reads the GenAI spans itself, but not the run's own: its span is UNKNOWN, in the default project", async () => {
    const exported = await exportShape('handoff', shapes[1]!.record, {
      endpoint: phoenix.url,
      protocol: 'http',
      serviceName: 'agent-trace-plain',
    });
    const stored = await readPhoenixTrace(
      phoenix.url,
      'default',
      exported.traceId,
      exported.sent.length,
    );
    expect(stored).toHaveLength(exported.sent.length);
    const shown = new Set(stored.map(span => `${span.name.split(' ')[0]} ${span.span_kind}`));
    expect(shown).toEqual(
      new Set(['invoke_workflow UNKNOWN', 'invoke_agent AGENT', 'chat LLM', 'execute_tool TOOL']),
    );
    const named = await fetch(`${phoenix.url}/v1/projects/agent-trace-plain/spans`);
    expect(named.status).toBe(404);
  });
});

describe('Phoenix, from a recorded trace', () => {
  it('agent-trace export --open-inference shows it as the live export does, under its project', async () => {
    // Recorded with no backend; the spans kept in memory are what a live export would send.
    const exported = await exportShape('demo', demo.record, {
      exporter: new InMemorySpanExporter(),
      openInference: true,
    });
    vi.stubEnv('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', 'true');
    const project = 'agent-trace-exported';
    const flags = ['--protocol', 'http', '--open-inference', '--service-name', project];
    const sent = await cli(['export', exported.file, '--otlp', phoenix.url, ...flags]);
    expect(sent.code).toBe(0);
    await expectShownAsSent(project, exported);
  });
});

describe("Phoenix, through the application's own SDK", () => {
  it('otelSink({ openInference: true }): the run a chain, under the project its resource names', async () => {
    const project = 'agent-trace-app-sdk';
    const memory = new InMemorySpanExporter();
    const grpc = new OTLPTraceExporter({ url: phoenix.otlpGrpc });
    const tracerProvider = new TracerProvider({
      resource: resourceFromAttributes({
        'service.name': 'app',
        [SEMRESATTRS_PROJECT_NAME]: project,
      }),
      spanProcessors: [memory, grpc].map(exporter => new SimpleSpanProcessor({ exporter })),
    });
    const jsonl = memorySink();
    const sink = otelSink({ tracerProvider, openInference: true, captureContent: true });
    await run(smallDesk(), 'Weather in Paris', { trace: [jsonl, sink], session: 's-app' });
    await tracerProvider.forceFlush();
    const sent = memory.getFinishedSpans();
    await tracerProvider.shutdown();
    const traceId = jsonl.events[0]!.trace_id;
    const stored = await readPhoenixTrace(phoenix.url, project, traceId, sent.length);
    const shown = new Map(stored.map(span => [span.context.span_id, span.span_kind]));
    expect(sent.map(span => shown.get(span.spanContext().spanId))).toEqual(
      sent.map(span => kinds[String(span.attributes[semconv.operationName])]),
    );
    const root = stored.find(span => span.parent_id === null)!;
    expect(root.attributes[oi.INPUT_VALUE]).toBe('Weather in Paris');
    expect(root.attributes[oi.SESSION_ID]).toBe('s-app');
  });
});

describe("Phoenix's UI", () => {
  it('shows the trace of a multi-agent run as a tree, in Chromium', async () => {
    const project = 'agent-trace-demo-ui';
    const exported = await exportShape('demo', demo.record, {
      endpoint: phoenix.url,
      protocol: 'http',
      openInference: true,
      serviceName: project,
    });
    await readPhoenixTrace(phoenix.url, project, exported.traceId, exported.sent.length);
    const traceView = await phoenixTracePage(phoenix.url, project, exported.traceId);
    const browser = await launchBrowser(await findChromium());
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 860 } });
      await page.goto(traceView);
      for (const name of ['invoke_workflow coordinator', 'invoke_agent coordinator', 'chat gpt-4o'])
        await page.getByText(name, { exact: true }).first().waitFor({ timeout: 30_000 });
    } finally {
      await browser.close();
    }
  }, 90_000);
});
