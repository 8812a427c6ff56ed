import type { TraceEvent } from '@agent-trace/core';
import { memorySink } from '../memory-sink.js';
import { json, text, type ForeignSpan } from './foreign-span.js';
import { messagesOf } from './genai-messages.js';
import { ImportedRun, type SpanNode } from './imported-run.js';

/** What an import made of the spans, and what it kept as plain spans. */
export interface ImportResult {
  /** The events of the runs, one run per trace, in order. */
  readonly events: TraceEvent[];
  /** The trace ids read, one run each. */
  readonly traces: readonly string[];
  /**
   * Spans that are not GenAI agents, model calls or tool calls, kept as plain spans: by name,
   * with how many.
   */
  readonly plainSpans: ReadonlyArray<{ readonly name: string; readonly count: number }>;
}

/**
 * Turns spans that follow the OpenTelemetry GenAI conventions (from `spansFromOtlpJson` or
 * `fetchJaegerSpans`) into agent-trace runs, one per trace: `invoke_agent` spans are agents,
 * `chat` (and `text_completion`, `generate_content`) spans model calls with their messages, usage
 * and finish reason, `execute_tool` spans tool calls, or handoffs when they carry
 * `gen_ai.transfer.*`; a trace agent-trace exported (its `invoke_workflow` root) comes back as the
 * run it was. Other spans (an HTTP request, a database query, a framework's step) are plain spans
 * in the tree, with their names and attributes, and the result names them. The runs validate,
 * and `replay`, `view`, `stats` and `diff` read them.
 */
export function importSpans(spans: readonly ForeignSpan[]): ImportResult {
  const sink = memorySink();
  const plain = new Map<string, number>();
  const byTrace = new Map<string, ForeignSpan[]>();
  for (const span of spans) {
    const list = byTrace.get(span.traceId);
    if (list === undefined) byTrace.set(span.traceId, [span]);
    else list.push(span);
  }
  // Each trace's first start, found once, orders the runs.
  const traces = [...byTrace.entries()]
    .map(([traceId, traceSpans]) => ({ traceId, traceSpans, startMs: earliest(traceSpans) }))
    .sort((a, b) => a.startMs - b.startMs);
  for (const { traceId, traceSpans } of traces) {
    const root = treeOf(traceSpans);
    const name = runName(root, traceSpans);
    const runId = text(root.span, 'agent_trace.run_id') ?? `imported-${traceId.slice(0, 16)}`;
    const run = new ImportedRun(traceId, runId, name, [sink]);
    run.write(root, inputOf(traceSpans), name);
    for (const [spanName, times] of run.plain)
      plain.set(spanName, (plain.get(spanName) ?? 0) + times);
  }
  return {
    events: [...sink.events],
    traces: traces.map(({ traceId }) => traceId),
    plainSpans: [...plain].map(([name, count]) => ({ name, count })),
  };
}

/** A trace's spans as a tree: its root, or, when it has several, one spanning them. */
function treeOf(spans: readonly ForeignSpan[]): SpanNode {
  const nodes = new Map(spans.map(span => [span.spanId, { span, children: [] as SpanNode[] }]));
  const roots: SpanNode[] = [];
  for (const node of [...nodes.values()].sort((a, b) => a.span.startMs - b.span.startMs)) {
    const parent =
      node.span.parentSpanId === undefined ? undefined : nodes.get(node.span.parentSpanId);
    (parent?.children ?? roots).push(node);
  }
  if (roots.length === 1) return roots[0]!;
  const first = roots[0]!.span;
  return {
    synthetic: true,
    span: {
      traceId: first.traceId,
      spanId: `${first.spanId}-roots`,
      name: 'trace',
      startMs: earliest(roots.map(root => root.span)),
      endMs: roots.reduce((latest, root) => Math.max(latest, root.span.endMs), -Infinity),
      attributes: {},
    },
    children: roots,
  };
}

/** The run's name: the workflow or first agent it names, else its root span's. */
function runName(root: SpanNode, spans: readonly ForeignSpan[]): string {
  const workflow = text(root.span, 'gen_ai.workflow.name');
  if (workflow !== undefined) return workflow;
  const agent = spans.find(span => text(span, 'gen_ai.agent.name') !== undefined);
  return (agent === undefined ? undefined : text(agent, 'gen_ai.agent.name')) ?? root.span.name;
}

/** The run's input: the first user message of its first model call. */
function inputOf(spans: readonly ForeignSpan[]): string {
  const calls = spans
    .filter(span => span.attributes['gen_ai.input.messages'] !== undefined)
    .sort((a, b) => a.startMs - b.startMs);
  for (const call of calls) {
    const user = messagesOf(json(call, 'gen_ai.input.messages')).messages.find(
      message => message.role === 'user',
    );
    if (user !== undefined) return user.content;
  }
  return '';
}

function earliest(spans: readonly ForeignSpan[]): number {
  // A loop, not Math.min(...spans): a spread of a big trace's spans overflows the stack.
  return spans.reduce((least, span) => Math.min(least, span.startMs), Infinity);
}
