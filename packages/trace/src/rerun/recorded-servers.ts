import type { TraceEvent } from '@agent-trace/core';
import type { RecordedServer, RecordedServerTool } from '@agent-trace/core/mcp/recorded';

/**
 * The MCP servers a recording used, each with the tools it listed (from the agents' recorded tool
 * definitions), for `useRecordedServers`: what a rerun offers when a server is gone. A trace
 * written before definitions named their server gives the tools its calls name
 * (`tool_start.mcp_server`).
 */
export function recordedServers(events: readonly TraceEvent[]): RecordedServer[] {
  const servers = new Map<string, { transport: string; tools: Map<string, RecordedServerTool> }>();
  const serverOf = (name: string, transport: string) => {
    let server = servers.get(name);
    if (server === undefined) {
      server = { transport, tools: new Map() };
      servers.set(name, server);
    }
    return server;
  };
  const definitions = new Map<string, RecordedServerTool>();
  for (const event of events) {
    if (event.event === 'agent_start') {
      for (const definition of event.tool_definitions ?? []) {
        const { mcp_server: server, ...tool } = definition;
        definitions.set(tool.name, tool);
        if (server !== undefined)
          serverOf(server.name, server.transport).tools.set(tool.name, tool);
      }
    } else if (event.event === 'tool_start' && event.mcp_server !== undefined) {
      const server = serverOf(event.mcp_server.name, event.mcp_server.transport);
      const definition = definitions.get(event.tool);
      if (definition !== undefined && !server.tools.has(event.tool))
        server.tools.set(event.tool, definition);
    }
  }
  return [...servers].map(([name, { transport, tools }]) => ({
    name,
    transport,
    tools: [...tools.values()],
  }));
}
