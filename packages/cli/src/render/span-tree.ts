import { isSpanEnd, isSpanStart, type TraceEvent } from '@agent-trace/core';

/** A span of a trace with its start, its end (when the trace has one) and its children. */
export interface SpanNode {
  readonly start: TraceEvent;
  end: TraceEvent | undefined;
  /** Child spans and point events (`guardrail`, `retry`), in seq order. */
  readonly children: (SpanNode | TraceEvent)[];
}

/** One run of a trace as a tree of spans. */
export interface RunTree {
  readonly run: string;
  readonly root: SpanNode;
}

/** True for a span node, false for a point event. */
export function isSpanNode(value: SpanNode | TraceEvent): value is SpanNode {
  return 'start' in value && 'children' in value;
}

/**
 * Builds the span tree of every run in the events, runs in order of appearance. Events whose
 * parent is unknown hang under the run's root so nothing is hidden.
 */
export function buildRunTrees(events: Iterable<TraceEvent>): RunTree[] {
  const trees: RunTree[] = [];
  const nodesByRun = new Map<string, Map<string, SpanNode>>();
  const rootByRun = new Map<string, SpanNode>();
  for (const event of events) {
    let nodes = nodesByRun.get(event.run);
    if (nodes === undefined) {
      nodes = new Map();
      nodesByRun.set(event.run, nodes);
    }
    if (isSpanStart(event.event)) {
      const node: SpanNode = { start: event, end: undefined, children: [] };
      nodes.set(event.span_id, node);
      const parent = event.parent_span_id === null ? undefined : nodes.get(event.parent_span_id);
      if (parent !== undefined) parent.children.push(node);
      else if (!rootByRun.has(event.run)) {
        rootByRun.set(event.run, node);
        trees.push({ run: event.run, root: node });
      } else rootByRun.get(event.run)?.children.push(node);
      continue;
    }
    const own = nodes.get(event.span_id);
    if (own !== undefined && own.end === undefined && isSpanEnd(event.event)) {
      own.end = event;
      continue;
    }
    const parent =
      (event.parent_span_id === null ? undefined : nodes.get(event.parent_span_id)) ??
      rootByRun.get(event.run);
    parent?.children.push(event);
  }
  return trees;
}
