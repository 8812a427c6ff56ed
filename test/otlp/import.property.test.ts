/**
 * Whatever shape the spans of a trace have — agents in tools, model calls outside agents, plain
 * spans anywhere, errors anywhere — the import gives a valid run whose starts and ends pair, and
 * every span comes back once, mapped or plain.
 */
import { validateTrace } from '@agent-trace/trace';
import { importSpans, type ForeignSpan } from '@agent-trace/trace/import';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const kinds = ['agent', 'chat', 'tool', 'handoff', 'plain'] as const;
type Kind = (typeof kinds)[number];

/** A span of the generated tree: its parent (an earlier node, none for the root), kind, error. */
interface Shape {
  readonly parent: number;
  readonly kind: Kind;
  readonly failed: boolean;
}

const shapes = fc
  .array(
    fc.record({
      parent: fc.nat(),
      kind: fc.constantFrom(...kinds),
      failed: fc.boolean(),
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

const attributesOf = (kind: Kind, index: number): Record<string, unknown> => {
  switch (kind) {
    case 'agent':
      return { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': `agent-${index}` };
    case 'chat':
      return {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'm',
        'gen_ai.output.messages': JSON.stringify([
          { role: 'assistant', parts: [{ type: 'text', content: `answer ${index}` }] },
        ]),
      };
    case 'tool':
      return {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': `tool-${index}`,
        'gen_ai.tool.call.arguments': '{}',
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
    attributes: attributesOf(node.kind, index),
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
