import type { TraceEvent } from '@agent-trace/core';

/**
 * A run's tree, for people and for comparing: each span's depth, kind and name (a tool's, a
 * handoff's `from→to`, a plain span's, else the agent's). With `mapped`, plain spans are left out
 * and what they held is shown where they were: the tree a bridge records.
 */
export function spanTree(events: readonly TraceEvent[], { mapped = false } = {}): string[] {
  const depth = new Map<string, number>();
  const lines: string[] = [];
  for (const event of events) {
    if (!event.event.endsWith('_start')) continue;
    const parent = event.parent_span_id === null ? -1 : (depth.get(event.parent_span_id) ?? -1);
    if (mapped && event.event === 'span_start') {
      depth.set(event.span_id, parent);
      continue;
    }
    const level = parent + 1;
    depth.set(event.span_id, level);
    const what =
      event.event === 'tool_start'
        ? event.tool
        : event.event === 'handoff_start'
          ? `${event.from}→${event.to}`
          : event.event === 'span_start'
            ? event.name
            : event.agent;
    lines.push(`${'  '.repeat(level)}${event.event.replace('_start', '')} ${what}`);
  }
  return lines;
}
