import type { TraceEvent } from '@agent-trace/core';

/** A span of the run with its own events and the spans under it. */
interface SpanNode {
  readonly own: TraceEvent[];
  readonly children: SpanNode[];
  /** The seq of its first event. */
  readonly first: number;
  /** Where the model asked for it, if it is a tool call: which answer, and its place there. */
  readonly call: { readonly answer: number; readonly rank: number } | undefined;
}

/**
 * The events of a run in an order that does not depend on timing: what a run did is a tree of
 * spans, and spans that ran at the same time under one parent (the tool calls of one model answer,
 * a graph's parallel nodes) are written in the order they finished, which a rerun need not
 * repeat. This walks the tree, each span's events whole, and reads the tool calls of one model
 * answer (a retry's attempts included) together, round by round and in each round in the order
 * the answer asked for them (their place in its `tool_calls`); every other span where it started,
 * so each sequential step reads as it happened.
 */
export function inCallOrder(events: readonly TraceEvent[]): TraceEvent[] {
  // A call id is the model's word and can come back in another answer: a tool span belongs to
  // the latest answer before it that asked for its id.
  const calls = new Map<string, { answer: number; rank: number }[]>();
  for (const event of events)
    if (event.event === 'llm_end')
      (event.tool_calls ?? []).forEach((call, rank) => {
        const asked = calls.get(call.call_id) ?? [];
        asked.push({ answer: event.seq, rank });
        calls.set(call.call_id, asked);
      });
  const callOf = (callId: unknown, seq: number) =>
    typeof callId === 'string' ? calls.get(callId)?.findLast(call => call.answer < seq) : undefined;
  const spans = new Map<string, SpanNode>();
  const roots: SpanNode[] = [];
  for (const event of events) {
    let node = spans.get(event.span_id);
    if (node === undefined) {
      const callId = (event as { call_id?: unknown }).call_id;
      node = {
        own: [],
        children: [],
        first: event.seq,
        call: callOf(callId, event.seq),
      };
      spans.set(event.span_id, node);
      const parent = event.parent_span_id === null ? undefined : spans.get(event.parent_span_id);
      (parent?.children ?? roots).push(node);
    }
    node.own.push(event);
  }
  const ordered: TraceEvent[] = [];
  for (const root of inOrder(roots)) walk(root, ordered);
  return ordered;
}

/**
 * Siblings in the order to read them: by start, except that the tool calls of one model answer
 * are read together, where the first of them started, in the order the answer asked for them
 * (a handoff it asked for last: it happens once they ran).
 */
function inOrder(siblings: readonly SpanNode[]): SpanNode[] {
  const units: { first: number; nodes: SpanNode[] }[] = [];
  const byAnswer = new Map<number, { first: number; nodes: SpanNode[] }>();
  for (const node of siblings) {
    if (node.call === undefined) {
      units.push({ first: node.first, nodes: [node] });
      continue;
    }
    let unit = byAnswer.get(node.call.answer);
    if (unit === undefined) {
      unit = { first: node.first, nodes: [] };
      byAnswer.set(node.call.answer, unit);
      units.push(unit);
    }
    unit.first = Math.min(unit.first, node.first);
    unit.nodes.push(node);
  }
  units.sort((a, b) => a.first - b.first);
  return sideBySide(units).flatMap(unit => unit.nodes.sort(byCall));
}

/** The agent a span is, when it is an agent's span (its first event is `agent_start`). */
const agentOf = (node: SpanNode): string | undefined => {
  const first = node.own[0];
  return first?.event === 'agent_start' ? first.agent : undefined;
};

/** The seq of a span's last own event (its end, once it ended). */
const lastOf = (node: SpanNode): number => node.own.at(-1)?.seq ?? node.first;

/**
 * Agents' spans that ran side by side under one parent (each began before another ended: a
 * graph's parallel nodes) are read by agent name, not in the order they began, which timing
 * decides; agents that ran one after another keep their order.
 */
function sideBySide<Unit extends { first: number; nodes: SpanNode[] }>(units: Unit[]): Unit[] {
  const out: Unit[] = [];
  let group: Unit[] = [];
  let groupEnd = -1;
  const flush = (): void => {
    if (group.length > 1)
      group.sort((a, b) => {
        const left = agentOf(a.nodes[0] as SpanNode) ?? '';
        const right = agentOf(b.nodes[0] as SpanNode) ?? '';
        return left < right ? -1 : left > right ? 1 : a.first - b.first;
      });
    out.push(...group);
    group = [];
    groupEnd = -1;
  };
  for (const unit of units) {
    const node = unit.nodes.length === 1 ? unit.nodes[0] : undefined;
    if (node === undefined || node.call !== undefined || agentOf(node) === undefined) {
      flush();
      out.push(unit);
      continue;
    }
    if (group.length > 0 && unit.first > groupEnd) flush();
    group.push(unit);
    groupEnd = Math.max(groupEnd, lastOf(node));
  }
  flush();
  return out;
}

/** A handoff an answer asked for happens after its tool calls (the loop runs them first). */
const handsOff = (node: SpanNode): number => (node.own[0]?.event === 'handoff_start' ? 1 : 0);

/** Which round of calls a tool span ran in: its attempt (a retry runs in the next round). */
const roundOf = (node: SpanNode): number => {
  const first = node.own[0];
  return first?.event === 'tool_start' ? (first.attempt ?? 1) : 1;
};

/**
 * The calls of one answer round by round, as the loop runs them (every call's first attempt, then
 * the retries), each round in the order the answer asked: a change that shows in a call of the
 * first round comes before what it changed in the retries.
 */
const byCall = (a: SpanNode, b: SpanNode): number =>
  handsOff(a) - handsOff(b) ||
  roundOf(a) - roundOf(b) ||
  (a.call?.rank ?? 0) - (b.call?.rank ?? 0) ||
  a.first - b.first;

/** Writes `node`'s events and its children's, each child's subtree whole, into `out`. */
function walk(node: SpanNode, out: TraceEvent[]): void {
  const children = inOrder(node.children);
  let next = 0;
  for (const event of node.own) {
    // The children that began before this event of the span come first.
    while (next < children.length && (children[next] as SpanNode).first < event.seq)
      walk(children[next++] as SpanNode, out);
    out.push(event);
  }
  while (next < children.length) walk(children[next++] as SpanNode, out);
}
