import { ATTR_EXCEPTION_MESSAGE, ATTR_EXCEPTION_TYPE } from '@opentelemetry/semantic-conventions';
import type { TraceEvent } from '@agent-trace/core';
import { memorySink } from '../memory-sink.js';
import { byStart, json, text, type ForeignSpan } from './foreign-span.js';
import { messagesOf } from './genai-messages.js';
import { ImportedRun, type SpanNode } from './imported-run.js';
import { semconv } from '../otlp/semconv.js';

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
  /**
   * Spans whose parent is not among the spans read (a trace cut short, a sampled-out parent): each
   * is imported at the top of its trace.
   */
  readonly orphans: ReadonlyArray<{
    readonly name: string;
    readonly spanId: string;
    readonly parentSpanId: string;
  }>;
}

/**
 * Turns spans that follow the OpenTelemetry GenAI conventions (from `spansFromOtlpJson` or
 * `fetchJaegerSpans`) into agent-trace runs, one per trace: `invoke_agent` spans are agents,
 * `chat` (and `text_completion`, `generate_content`) spans model calls with their messages, usage
 * and finish reason, `execute_tool` spans tool calls, or handoffs when they carry
 * `agent_trace.transfer.*`; a trace agent-trace exported (its `invoke_workflow` root) comes back as the
 * run it was. Other spans (an HTTP request, a database query, a framework's step) are plain spans
 * in the tree, with their names and attributes, and the result names them. The runs validate,
 * and `replay`, `view`, `stats` and `diff` read them.
 */
export function importSpans(spans: readonly ForeignSpan[]): ImportResult {
  const sink = memorySink();
  const plain = new Map<string, number>();
  const byTrace = new Map<string, ForeignSpan[]>();
  for (const read of spans) {
    const span = withExceptionMessage(read);
    const list = byTrace.get(span.traceId);
    if (list === undefined) byTrace.set(span.traceId, [span]);
    else list.push(span);
  }
  // Each trace's first start, found once, orders the runs.
  const traces = [...byTrace.entries()]
    .map(([traceId, traceSpans]) => ({ traceId, traceSpans, startMs: earliest(traceSpans) }))
    .sort((a, b) => a.startMs - b.startMs);
  const orphans: ImportResult['orphans'][number][] = [];
  for (const { traceId, traceSpans } of traces) {
    const root = treeOf(traceSpans, orphans);
    const name = runName(root);
    // The whole trace id: ids that share a prefix (time-ordered ones do) stay apart.
    const runId = text(root.span, 'agent_trace.run_id') ?? `imported-${traceId}`;
    const run = new ImportedRun(traceId, runId, name, [sink]);
    run.write(root, inputOf(traceSpans), name);
    for (const [spanName, times] of run.plain)
      plain.set(spanName, (plain.get(spanName) ?? 0) + times);
  }
  return {
    events: [...sink.events],
    traces: traces.map(({ traceId }) => traceId),
    plainSpans: [...plain].map(([name, count]) => ({ name, count })),
    orphans,
  };
}

/**
 * A failed span whose status says nothing (OpenTelemetry's `recordException` puts the error in an
 * `exception` event, and many instrumentations set no status message): its error is the
 * exception's `type: message`. Any other span as it is.
 */
function withExceptionMessage(span: ForeignSpan): ForeignSpan {
  if (span.error === undefined || span.error !== '') return span;
  const exception = span.events?.find(event => event.name === 'exception')?.attributes;
  if (exception === undefined) return span;
  const type = exception[ATTR_EXCEPTION_TYPE];
  const message = exception[ATTR_EXCEPTION_MESSAGE];
  const said = [type, message].filter(part => typeof part === 'string' && part !== '');
  return said.length === 0 ? span : { ...span, error: said.join(': ') };
}

/**
 * A trace's spans as a tree: its root, or, when it has several, one spanning them. A span whose
 * parent is missing is a root too, and told to `orphans`.
 */
function treeOf(
  spans: readonly ForeignSpan[],
  orphans: ImportResult['orphans'][number][],
): SpanNode {
  const nodes = new Map(spans.map(span => [span.spanId, { span, children: [] as SpanNode[] }]));
  const roots: SpanNode[] = [];
  for (const node of [...nodes.values()].sort((a, b) => byStart(a.span, b.span))) {
    const { parentSpanId } = node.span;
    const parent = parentSpanId === undefined ? undefined : nodes.get(parentSpanId);
    if (parentSpanId !== undefined && parent === undefined)
      orphans.push({ name: node.span.name, spanId: node.span.spanId, parentSpanId });
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

/**
 * The run's name: the workflow it names, else its root agent (the agent nearest the root, the
 * earliest of those as near), else its root span's name.
 */
function runName(root: SpanNode): string {
  const workflow = text(root.span, semconv.workflowName);
  if (workflow !== undefined) return workflow;
  for (let level: readonly SpanNode[] = [root]; level.length > 0;) {
    for (const node of level) {
      const agent = text(node.span, semconv.agentName);
      if (agent !== undefined) return agent;
    }
    level = level.flatMap(node => node.children);
  }
  return root.span.name;
}

/** The run's input: the first user message of its first model call. */
function inputOf(spans: readonly ForeignSpan[]): string {
  const calls = spans
    .filter(span => span.attributes[semconv.inputMessages] !== undefined)
    .sort(byStart);
  for (const call of calls) {
    const user = messagesOf(json(call, semconv.inputMessages)).messages.find(
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
