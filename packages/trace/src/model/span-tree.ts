import type { TraceEvent } from '@agent-trace/core';
import { isSpanEnd, isSpanStart } from '@agent-trace/core/spans';

/** A span of a trace with its start, its end (when the trace has one) and its children. */
export interface SpanNode {
  readonly start: TraceEvent;
  end: TraceEvent | undefined;
  /** Child spans and point events (`guardrail`, `retry`, …), in seq order. */
  readonly children: (SpanNode | TraceEvent)[];
}

/**
 * One part of a run as a tree of spans, rooted at its `run_start`. A run paused for approval and
 * resumed is two parts: the resumed `run_start` (no parent, as in the trace and over OTLP) roots
 * a tree of its own, with the same run id.
 */
export interface RunTree {
  readonly run: string;
  readonly root: SpanNode;
}

/** True for a span node, false for a point event. */
export function isSpanNode(value: SpanNode | TraceEvent): value is SpanNode {
  return 'start' in value && 'children' in value;
}

/**
 * The span trees of the events: every part of every run, in order of appearance. The one model of
 * a trace's spans that `replay`, `fork` and the viewer show. An event whose parent is unknown
 * hangs under its run's latest root, so nothing is hidden.
 */
export function buildRunTrees(events: Iterable<TraceEvent>): RunTree[] {
  const trees: RunTree[] = [];
  const nodesByRun = new Map<string, Map<string, SpanNode>>();
  const latestRoot = new Map<string, SpanNode>();
  for (const event of events) {
    let nodes = nodesByRun.get(event.run);
    if (nodes === undefined) {
      nodes = new Map();
      nodesByRun.set(event.run, nodes);
    }
    const parent = event.parent_span_id === null ? undefined : nodes.get(event.parent_span_id);
    if (isSpanStart(event.event)) {
      const node: SpanNode = { start: event, end: undefined, children: [] };
      nodes.set(event.span_id, node);
      const root = latestRoot.get(event.run);
      if (parent !== undefined) parent.children.push(node);
      else if (root === undefined || event.event === 'run_start') {
        latestRoot.set(event.run, node);
        trees.push({ run: event.run, root: node });
      } else root.children.push(node);
      continue;
    }
    const own = nodes.get(event.span_id);
    if (own !== undefined && own.end === undefined && isSpanEnd(event.event)) {
      own.end = event;
      continue;
    }
    (parent ?? latestRoot.get(event.run))?.children.push(event);
  }
  return trees;
}
