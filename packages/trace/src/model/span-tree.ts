import type { TraceEvent } from '@agent-trace/core';
import { isJudgment } from '@agent-trace/core/spans';
import { SpanPlacer } from './span-placer.js';

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
  const placer = new SpanPlacer<SpanNode>(node => node.end === undefined);
  for (const event of events) {
    // What judges the run after its end (feedback, evaluations) is not a part of its tree.
    if (isJudgment(event)) continue;
    const placement = placer.place(event);
    if (placement.kind === 'end') {
      placement.own.end = event;
    } else if (placement.kind === 'point') {
      placement.parent?.children.push(event);
    } else {
      const node: SpanNode = { start: event, end: undefined, children: [] };
      placer.started(event, node, placement);
      if (placement.kind === 'root') trees.push({ run: event.run, root: node });
      else placement.parent.children.push(node);
    }
  }
  return trees;
}
