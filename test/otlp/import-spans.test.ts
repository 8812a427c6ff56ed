import { OpenTelemetry } from '@ai-sdk/otel';
import { agentTraceTelemetry, aiSdkModel } from '@agent-trace/ai-sdk';
import { agent, handoff, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { fetchJaegerSpans, importSpans, spansFromOtlpJson } from '@agent-trace/trace/import';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../support/cli.js';
import { otlpSink } from '@agent-trace/trace/otlp';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';
import { generateText, isStepCount, tool as aiTool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { spanTree } from '../support/span-tree.js';

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => context.disable());

/** Spans as the Collector's file exporter writes them: OTLP/JSON, one request a line. */
function otlpJson(spans: readonly ReadableSpan[]): string {
  return new TextDecoder().decode(JsonTraceSerializer.serializeRequest([...spans]));
}

describe('agent-trace import: GenAI spans back into a trace', () => {
  it("a run exported by agent-trace's otlpSink comes back from OTLP JSON as the same tree", async () => {
    const exporter = new InMemorySpanExporter();
    const recorded = memorySink();
    const lookup = tool({
      name: 'lookup',
      description: 'Look a refund up',
      input: z.object({ order: z.string() }),
      execute: ({ order }) => ({ order, refundable: true }),
    });
    const billing = agent({
      name: 'billing',
      instructions: 'Refund what is refundable.',
      tools: [lookup],
      model: fakeLLM([
        { toolCalls: [{ name: 'lookup', args: { order: 'A-1' } }] },
        { text: 'Refunded A-1.' },
      ]),
    });
    const triage = agent({
      name: 'triage',
      instructions: 'Send refunds to billing.',
      handoffs: [handoff(billing)],
      model: fakeLLM([{ toolCalls: [{ name: 'transfer_to_billing', args: {} }] }]),
    });
    const sink = otlpSink({ exporter, captureContent: true, serviceName: 'desk' });
    await run(triage, 'Refund order A-1', { trace: [recorded, sink] });
    await sink.forceFlush();
    const { events, plainSpans, traces } = importSpans(
      spansFromOtlpJson(otlpJson(exporter.getFinishedSpans())),
    );
    expect(traces).toHaveLength(1);
    expect(plainSpans).toEqual([]);
    expect(validateTrace(events).problems).toEqual([]);
    expect(spanTree(events)).toEqual(spanTree(recorded.events));
    const original = recorded.events;
    expect(events.at(-1)).toMatchObject({
      event: 'run_end',
      stop_reason: 'completed',
      output: 'Refunded A-1.',
      run: original[0]!.run,
      trace_id: original[0]!.trace_id,
    });
    const toolEnd = events.find(event => event.event === 'tool_end');
    expect(toolEnd).toMatchObject({
      tool: 'lookup',
      args: { order: 'A-1' },
      result: { order: 'A-1', refundable: true },
    });
  });

  it("the AI SDK's own OpenTelemetry spans come back from OTLP JSON as the tree its bridge records", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    const bridged = memorySink();
    const telemetry = agentTraceTelemetry({ trace: bridged });
    const weather = aiTool({
      description: 'The weather in a city',
      inputSchema: z.object({ city: z.string() }),
      execute: ({ city }) => Promise.resolve({ city, celsius: -3 }),
    });
    await generateText({
      model: aiSdkModel(
        fakeLLM([
          {
            toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }],
            usage: { promptTokens: 30, completionTokens: 6 },
          },
          { text: 'Oslo is at -3 °C.', usage: { promptTokens: 50, completionTokens: 7 } },
        ]),
      ),
      system: 'Use the weather tool.',
      tools: { weather },
      stopWhen: isStepCount(5),
      prompt: 'How cold is Oslo?',
      telemetry: {
        functionId: 'forecaster',
        integrations: [
          new OpenTelemetry({ tracer: provider.getTracer('ai'), agentSpanName: 'functionId' }),
          telemetry,
        ],
      },
    });
    await telemetry.flush();
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const { events, plainSpans } = importSpans(spansFromOtlpJson(otlpJson(spans)));
    expect(validateTrace(events).problems).toEqual([]);
    // The AI SDK's step spans are plain spans around each step's model and tool calls.
    expect(plainSpans).toEqual([
      { name: 'step 1', count: 1 },
      { name: 'step 2', count: 1 },
    ]);
    expect(spanTree(events)).toEqual(forecasterTree);
    expect(spanTree(events, { mapped: true })).toEqual(spanTree(bridged.events));
    const calls = events.filter(event => event.event === 'llm_end');
    expect(calls).toMatchObject([
      {
        tok_prompt: 30,
        tok_completion: 6,
        finish_reason: 'tool_calls',
        tool_calls: [{ tool: 'weather' }],
      },
      { tok_prompt: 50, text: 'Oslo is at -3 °C.', finish_reason: 'stop' },
    ]);
    expect(events[0]).toMatchObject({ event: 'run_start', input: 'How cold is Oslo?' });
  });
});

/** The tree of the AI SDK's forecaster as its OpenTelemetry spans bring it back. */
const forecasterTree = [
  'run forecaster',
  '  agent forecaster',
  '    span step 1',
  '      llm forecaster',
  '      tool weather',
  '    span step 2',
  '      llm forecaster',
];

/**
 * Jaeger's query API, answering from a recorded response: the AI SDK forecaster's spans as
 * Jaeger returns them (`test/fixtures/jaeger/ai-sdk-trace.json`). Jaeger cannot be installed
 * here; this is its HTTP API's shape, served on 127.0.0.1.
 */
async function jaeger(): Promise<{ url: string; server: Server; asked: string[] }> {
  const recorded = readFileSync(
    new URL('../fixtures/jaeger/ai-sdk-trace.json', import.meta.url),
    'utf8',
  );
  const { data } = JSON.parse(recorded) as { data: [{ traceID: string }] };
  const asked: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    asked.push(`${url.pathname}${url.search}`);
    const found =
      url.pathname === `/api/traces/${data[0].traceID}` ||
      (url.pathname === '/api/traces' && url.searchParams.get('service') === 'forecast-service');
    response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    response.end(
      found
        ? recorded
        : JSON.stringify({ data: null, errors: [{ code: 404, msg: 'trace not found' }] }),
    );
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, asked };
}

describe('agent-trace import from Jaeger', () => {
  it("reads a trace by id from Jaeger's query API: it validates and renders the same tree", async () => {
    const { url, server, asked } = await jaeger();
    try {
      const traceId = 'f9ccbb9f019fd5b8e2114434ad83e69c';
      const { events, plainSpans } = importSpans(await fetchJaegerSpans({ url, traceId }));
      expect(asked).toEqual([`/api/traces/${traceId}`]);
      expect(validateTrace(events).problems).toEqual([]);
      expect(spanTree(events)).toEqual(forecasterTree);
      expect(plainSpans.map(each => each.name)).toEqual(['step 1', 'step 2']);
      // Jaeger's own tags for the span's kind and status are read, not kept as attributes.
      expect(events.find(event => event.event === 'span_start')).toMatchObject({
        name: 'step 1',
        attributes: { 'gen_ai.operation.name': 'agent_step' },
      });
      expect(events.filter(event => event.event === 'llm_end')).toMatchObject([
        { tok_prompt: 30, finish_reason: 'tool_calls' },
        { text: 'Oslo is at -3 °C.', finish_reason: 'stop' },
      ]);
    } finally {
      server.close();
    }
  });

  it('imports through the CLI, by service and time range, or from an OTLP JSON file, and says what it could not read', async () => {
    const { url, server, asked } = await jaeger();
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-import-'));
    try {
      const out = join(folder, 'desk.jsonl');
      const imported = await cli([
        'import',
        '--jaeger',
        url,
        '--service',
        'forecast-service',
        '--since',
        '2h',
        '--out',
        out,
      ]);
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain('of 1 trace into');
      expect(imported.stdout).toContain(
        'kept as plain spans (not GenAI agents, model calls or tool calls): step 1 ×1, step 2 ×1',
      );
      expect(asked.at(-1)).toMatch(
        /^\/api\/traces\?service=forecast-service&start=\d+&end=\d+&limit=20$/,
      );
      const validated = await cli(['validate', out]);
      expect(validated.stdout).toContain(': valid — 1 run');
      expect(validated.code).toBe(0);
      const replayed = (await cli(['replay', out])).stdout;
      expect(replayed).toContain('agent forecaster');
      expect(replayed).toMatch(/span step 1 .*"gen_ai.operation.name":"agent_step"/);
      const missing = await cli(['import', '--jaeger', url, '--trace-id', '0123', '--out', out]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('no such trace');
      const bad = join(folder, 'bad.json');
      writeFileSync(bad, '{"resourceSpans": [\n');
      const unreadable = await cli(['import', bad, '--out', out]);
      expect(unreadable.code).toBe(2);
      expect(unreadable.stderr).toContain(`${bad}:1: not JSON`);
    } finally {
      server.close();
    }
  });
});
