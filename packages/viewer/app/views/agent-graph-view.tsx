import type { AgentGraph, GraphEdge, GraphNode } from '../model/agent-graph.js';

const nodeWidth = 170;
const nodeHeight = 46;
const columnGap = 160;
const rowGap = 34;

const position = (node: GraphNode): { x: number; y: number } => ({
  x: 24 + node.column * (nodeWidth + columnGap),
  y: 24 + node.row * (nodeHeight + rowGap),
});

function edgePath(from: GraphNode, to: GraphNode, lane: number): string {
  const a = position(from);
  const b = position(to);
  if (to.column > from.column) {
    const x1 = a.x + nodeWidth;
    const y1 = a.y + nodeHeight / 2 + lane * 8;
    const x2 = b.x;
    const y2 = b.y + nodeHeight / 2 + lane * 8;
    return `M${x1},${y1} C${x1 + columnGap / 2},${y1} ${x2 - columnGap / 2},${y2} ${x2},${y2}`;
  }
  // Back or sideways: loop under the nodes.
  const x1 = a.x + nodeWidth / 2 + lane * 10;
  const y1 = a.y + nodeHeight;
  const x2 = b.x + nodeWidth / 2 - lane * 10;
  const y2 = b.y + nodeHeight;
  const dip = Math.max(y1, y2) + 40 + lane * 14;
  return `M${x1},${y1} C${x1},${dip} ${x2},${dip} ${x2},${y2}`;
}

function labelAt(from: GraphNode, to: GraphNode, lane: number): { x: number; y: number } {
  const a = position(from);
  const b = position(to);
  if (to.column > from.column) return { x: b.x - 10, y: b.y + nodeHeight / 2 - 6 + lane * 14 };
  return {
    x: (a.x + b.x) / 2 + nodeWidth / 2,
    y: Math.max(a.y, b.y) + nodeHeight + 34 + lane * 14,
  };
}

/** Who handed off to or delegated to whom, with how often: boxes for agents, arrows for transfers. */
export function AgentGraphView({ graph }: { graph: AgentGraph }) {
  const byName = new Map(graph.nodes.map(node => [node.agent, node]));
  const columns = Math.max(1, ...graph.nodes.map(node => node.column + 1));
  const rows = Math.max(1, ...graph.nodes.map(node => Math.ceil(node.row + 1)));
  const width = 48 + columns * nodeWidth + (columns - 1) * columnGap;
  const height = 110 + rows * nodeHeight + (rows - 1) * rowGap;
  const lanes = new Map<string, number>();
  const laneOf = (edge: GraphEdge): number => {
    const key = [edge.from, edge.to].sort().join('\u0000');
    const lane = lanes.get(key) ?? 0;
    lanes.set(key, lane + 1);
    return lane;
  };
  if (graph.nodes.length === 0) return <p class="muted">No agents in this run.</p>;
  return (
    <section class="graph" aria-label="Agent graph">
      <p class="muted">
        Solid arrows hand the conversation over (handoff); dashed ones ask an agent and get its
        answer back (delegation, an agent used as a tool). Counts are over the runs shown.
      </p>
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label="Agents and transfers"
      >
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" class="arrow-head" />
          </marker>
        </defs>
        {graph.edges.map(edge => {
          const from = byName.get(edge.from);
          const to = byName.get(edge.to);
          if (from === undefined || to === undefined) return null;
          const lane = laneOf(edge);
          const label = labelAt(from, to, lane);
          return (
            <g
              class={`edge edge-${edge.kind}`}
              data-from={edge.from}
              data-to={edge.to}
              data-count={edge.count}
            >
              <path d={edgePath(from, to, lane)} marker-end="url(#arrow)" />
              <text
                x={label.x}
                y={label.y}
                text-anchor={to.column > from.column ? 'end' : 'middle'}
              >
                {edge.count}× {edge.kind}
              </text>
            </g>
          );
        })}
        {graph.nodes.map(node => (
          <AgentNode node={node} />
        ))}
      </svg>
    </section>
  );
}

/** An agent's box: its name and how many times it started. */
function AgentNode({ node }: { node: GraphNode }) {
  const { x, y } = position(node);
  return (
    <g class="node" data-agent={node.agent}>
      <rect x={x} y={y} width={nodeWidth} height={nodeHeight} rx="8" />
      <text x={x + nodeWidth / 2} y={y + 19} text-anchor="middle" class="node-name">
        {node.agent.length > 22 ? `${node.agent.slice(0, 21)}…` : node.agent}
      </text>
      <text x={x + nodeWidth / 2} y={y + 36} text-anchor="middle" class="node-count">
        {node.starts} start{node.starts === 1 ? '' : 's'}
      </text>
    </g>
  );
}
