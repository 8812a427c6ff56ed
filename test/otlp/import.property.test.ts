/**
 * Whatever shape the spans of a trace have — agents in tools, model calls outside agents, plain
 * spans anywhere, errors anywhere — the import gives a valid run whose starts and ends pair, and
 * every span comes back once, mapped or plain; and what it reads of a model call, the export
 * writes back.
 */
import type { TraceEvent } from '@agent-trace/core';
import { validateTrace } from '@agent-trace/trace';
import { importSpans, type ForeignSpan } from '@agent-trace/trace/import';
import { SpanBuilder } from '@agent-trace/trace/otlp';
import { resourceFromAttributes } from '@opentelemetry/resources';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const kinds = ['agent', 'chat', 'tool', 'handoff', 'plain'] as const;
type Kind = (typeof kinds)[number];

/**
 * A span of the generated tree: its parent (an earlier node, none for the root), kind, error, and
 * whether its exporter captured content (arguments, messages; opt-in in the conventions).
 */
interface Shape {
  readonly parent: number;
  readonly kind: Kind;
  readonly failed: boolean;
  readonly captured: boolean;
}

const shapes = fc
  .array(
    fc.record({
      parent: fc.nat(),
      kind: fc.constantFrom(...kinds),
      failed: fc.boolean(),
      captured: fc.boolean(),
    }),
    { minLength: 1, maxLength: 24 },
  )
  // Each node hangs under an earlier one, so the shapes make one tree rooted at the first.
  .map(nodes =>
    nodes.map((node, index): Shape => ({
      ...node,
      parent: index === 0 ? -1 : node.parent % index,
    })),
  );

const attributesOf = (kind: Kind, index: number, captured: boolean): Record<string, unknown> => {
  switch (kind) {
    case 'agent':
      return { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': `agent-${index}` };
    case 'chat':
      return {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'm',
        ...(captured
          ? {
              'gen_ai.output.messages': JSON.stringify([
                { role: 'assistant', parts: [{ type: 'text', content: `answer ${index}` }] },
              ]),
            }
          : {}),
      };
    case 'tool':
      return {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': `tool-${index}`,
        ...(captured ? { 'gen_ai.tool.call.arguments': '{}' } : {}),
      };
    case 'handoff':
      return {
        'gen_ai.operation.name': 'execute_tool',
        'agent_trace.transfer.target.name': `agent-${index + 1}`,
      };
    default:
      return { 'http.route': `/r/${index}` };
  }
};

/** The shapes as spans, each child inside its parent's time, in order. */
function spansOf(nodes: readonly Shape[]): ForeignSpan[] {
  const children = nodes.map((_, index) =>
    nodes.flatMap((node, child) => (node.parent === index ? [child] : [])),
  );
  const times = new Map<number, [number, number]>();
  let clock = 1_790_000_000_000;
  const visit = (index: number): void => {
    const start = (clock += 3);
    for (const child of children[index]!) visit(child);
    times.set(index, [start, (clock += 3)]);
  };
  visit(0);
  return nodes.map((node, index) => ({
    traceId: 'c0ffee00c0ffee00c0ffee00c0ffee00',
    spanId: (index + 1).toString(16).padStart(16, '0'),
    ...(node.parent < 0 ? {} : { parentSpanId: (node.parent + 1).toString(16).padStart(16, '0') }),
    name: `${node.kind} ${index}`,
    startMs: times.get(index)![0],
    endMs: times.get(index)![1],
    attributes: attributesOf(node.kind, index, node.captured),
    ...(node.failed ? { error: `failed ${index}` } : {}),
  }));
}

describe('agent-trace import terminates in a valid run', () => {
  it('for any tree of spans: valid, paired, every span once, mapped or plain', () => {
    fc.assert(
      fc.property(shapes, nodes => {
        const spans = spansOf(nodes);
        const { events, plainSpans } = importSpans(spans);
        expect(validateTrace(events).problems).toEqual([]);
        // As a file reads it back, where a field left undefined is gone.
        const written = events.map(event => JSON.parse(JSON.stringify(event)) as TraceEvent);
        expect(validateTrace(written).problems).toEqual([]);
        expect(events.at(-1)?.event).toBe('run_end');
        const starts = events.filter(event => event.event.endsWith('_start'));
        const ids = new Set(starts.map(event => event.span_id));
        for (const span of spans) expect(ids).toContain(span.spanId);
        expect(starts).toHaveLength(new Set(starts.map(event => event.span_id)).size);
        const plain = starts.filter(event => event.event === 'span_start');
        expect(plain.length).toBe(plainSpans.reduce((sum, each) => sum + each.count, 0));
        // A plain span is a span of the trace that is not a GenAI agent, model call or tool call.
        for (const event of plain) {
          const shape = nodes[Number.parseInt(event.span_id, 16) - 1]!;
          expect(['plain', 'tool']).toContain(shape.kind);
        }
      }),
      { seed: 20261125, numRuns: 300 },
    );
  });
});

/** The GenAI attributes a model call's span may carry, as another system (or agent-trace) wrote them. */
const chatAttributes = fc.record(
  {
    'gen_ai.provider.name': fc.constantFrom('openai', 'anthropic', 'aws.bedrock'),
    'gen_ai.request.model': fc.constantFrom('gpt-4o', 'claude-sonnet-4-6'),
    'gen_ai.response.model': fc.constantFrom('gpt-4o-2024-08-06', 'claude-sonnet-4-6-20260101'),
    'gen_ai.response.id': fc.stringMatching(/^[a-z]{3}_[A-Za-z0-9]{6,12}$/),
    'gen_ai.usage.input_tokens': fc.nat({ max: 100_000 }),
    'gen_ai.usage.output_tokens': fc.nat({ max: 10_000 }),
    'gen_ai.usage.reasoning.output_tokens': fc.integer({ min: 1, max: 10_000 }),
    'gen_ai.response.finish_reasons': fc.constantFrom(['stop'], ['tool_call'], ['length']),
    'gen_ai.request.temperature': fc.constantFrom(0, 0.2, 1),
    'gen_ai.request.max_tokens': fc.integer({ min: 1, max: 4096 }),
    'gen_ai.request.stream': fc.constant(true),
    'gen_ai.response.time_to_first_chunk': fc.constantFrom(0.05, 0.25, 1.5),
    'server.address': fc.constantFrom('api.openai.com', 'llm.internal'),
    'server.port': fc.constantFrom(443, 8080),
  },
  { requiredKeys: ['gen_ai.provider.name', 'gen_ai.request.model'] },
);

describe('what the import reads, the export writes back', () => {
  it("a model call's provider, models, answer id, tokens, finish reason, settings, stream, first chunk and server round-trip", () => {
    fc.assert(
      fc.property(fc.array(chatAttributes, { minLength: 1, maxLength: 6 }), calls => {
        const root: ForeignSpan = {
          traceId: 'c0ffee00c0ffee00c0ffee00c0ffee00',
          spanId: '0000000000000001',
          name: 'invoke_agent desk',
          startMs: 1_790_000_000_000,
          endMs: 1_790_000_001_000,
          attributes: {
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.agent.name': 'desk',
            'gen_ai.agent.description': 'Answers the customer.',
            'gen_ai.agent.version': '2026-11',
          },
        };
        const spans = calls.map((attributes, index): ForeignSpan => ({
          traceId: root.traceId,
          spanId: (index + 2).toString(16).padStart(16, '0'),
          parentSpanId: root.spanId,
          name: `chat ${index}`,
          startMs: root.startMs + index * 10 + 1,
          endMs: root.startMs + index * 10 + 9,
          attributes: { 'gen_ai.operation.name': 'chat', ...attributes },
        }));
        const mcpTool: ForeignSpan = {
          traceId: root.traceId,
          spanId: 'f'.repeat(16),
          parentSpanId: root.spanId,
          name: 'execute_tool add',
          startMs: root.startMs + calls.length * 10 + 1,
          endMs: root.startMs + calls.length * 10 + 5,
          attributes: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': 'add',
            'gen_ai.tool.call.id': 'call-1',
            'gen_ai.tool.description': 'Adds two numbers',
            'agent_trace.mcp.server.name': 'math',
            'agent_trace.mcp.server.transport': 'stdio',
          },
        };
        const { events } = importSpans([root, ...spans, mcpTool]);
        const builder = new SpanBuilder({
          captureContent: false,
          maxAttributeLength: 65_536,
          resource: resourceFromAttributes({ 'service.name': 'round-trip' }),
        });
        const all = events.flatMap(event => builder.accept(event) ?? []);
        const agentSpan = all.find(
          span => span.attributes['gen_ai.operation.name'] === 'invoke_agent',
        );
        expect(agentSpan?.attributes['gen_ai.agent.description']).toBe('Answers the customer.');
        expect(agentSpan?.attributes['gen_ai.agent.version']).toBe('2026-11');
        const exported = all.filter(span => span.attributes['gen_ai.operation.name'] === 'chat');
        const tool = all.find(span => span.attributes['gen_ai.tool.name'] === 'add');
        expect(tool?.attributes).toMatchObject({
          'gen_ai.tool.type': 'extension',
          'gen_ai.tool.description': 'Adds two numbers',
          'agent_trace.mcp.server.name': 'math',
          'agent_trace.mcp.server.transport': 'stdio',
        });
        expect(exported).toHaveLength(calls.length);
        exported.forEach((span, index) => {
          const given = calls[index]!;
          const back = span.attributes;
          expect(back['gen_ai.provider.name']).toBe(given['gen_ai.provider.name']);
          // The model a call names is the one that answered, when the span says.
          expect(back['gen_ai.request.model']).toBe(
            given['gen_ai.response.model'] ?? given['gen_ai.request.model'],
          );
          for (const name of [
            'gen_ai.response.model',
            'gen_ai.response.id',
            'gen_ai.usage.input_tokens',
            'gen_ai.usage.output_tokens',
            'gen_ai.usage.reasoning.output_tokens',
            'gen_ai.response.finish_reasons',
            'gen_ai.request.temperature',
            'gen_ai.request.max_tokens',
            'gen_ai.request.stream',
            'gen_ai.response.time_to_first_chunk',
          ] as const)
            if (given[name] !== undefined) expect(back[name], name).toEqual(given[name]);
          // The server comes back as a pair, or not at all.
          if (given['server.address'] !== undefined && given['server.port'] !== undefined)
            expect([back['server.address'], back['server.port']]).toEqual([
              given['server.address'],
              given['server.port'],
            ]);
        });
      }),
      { seed: 20261126, numRuns: 200 },
    );
  });
});
