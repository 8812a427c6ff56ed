import type { GraphFact } from '../../src/viewer-data.js';

/** An agent of the graph, placed in a column by its distance from the entry agent. */
export interface GraphNode {
  readonly agent: string;
  /** How many times the agent started. */
  readonly starts: number;
  readonly column: number;
  /** The row within its column; columns with fewer agents are centred, so rows can be halves. */
  readonly row: number;
}

/** Who handed off to or delegated to whom, and how often. */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  /** `handoff` passes control; `delegation` (an agent used as a tool) returns to the caller. */
  readonly kind: 'handoff' | 'delegation';
  readonly count: number;
}

/** The agent graph of some runs' events. */
export interface AgentGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

/**
 * The agents of the events and the handoffs and delegations between them, with counts. Agents are
 * laid out in columns by breadth-first distance from the first agent; agents nothing reaches (an
 * entry agent of another run) start a column 0 of their own.
 */
export function agentGraph(events: readonly GraphFact[]): AgentGraph {
  const starts = new Map<string, number>();
  const edges = new Map<string, GraphEdge>();
  for (const event of events) {
    if (event.event === 'agent_start') starts.set(event.agent, (starts.get(event.agent) ?? 0) + 1);
    if (event.event !== 'handoff_start' || event.from === undefined || event.to === undefined)
      continue;
    const kind = event.mode === 'pass_control' ? 'handoff' : 'delegation';
    const key = `${event.from}\u0000${event.to}\u0000${kind}`;
    const edge = edges.get(key);
    edges.set(key, { from: event.from, to: event.to, kind, count: (edge?.count ?? 0) + 1 });
    for (const agent of [event.from, event.to]) if (!starts.has(agent)) starts.set(agent, 0);
  }
  const columns = layers([...starts.keys()], [...edges.values()]);
  const perColumn = new Map<number, number>();
  const placed = [...starts.entries()].map(([agent, count]) => {
    const column = columns.get(agent) ?? 0;
    const row = perColumn.get(column) ?? 0;
    perColumn.set(column, row + 1);
    return { agent, starts: count, column, row };
  });
  const tallest = Math.max(0, ...perColumn.values());
  const nodes = placed.map(node => ({
    ...node,
    row: node.row + (tallest - (perColumn.get(node.column) ?? 0)) / 2,
  }));
  return { nodes, edges: [...edges.values()] };
}

function layers(agents: readonly string[], edges: readonly GraphEdge[]): Map<string, number> {
  const column = new Map<string, number>();
  for (const root of agents) {
    if (column.has(root)) continue;
    column.set(root, 0);
    const queue = [root];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const depth = column.get(next) ?? 0;
      for (const edge of edges)
        if (edge.from === next && !column.has(edge.to)) {
          column.set(edge.to, depth + 1);
          queue.push(edge.to);
        }
    }
  }
  return column;
}
