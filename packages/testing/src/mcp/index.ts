import { importPeer } from '@agent-trace/core/util';

// The fake server runs on the optional peer `@modelcontextprotocol/sdk`: check it first.
await importPeer(() => import('@modelcontextprotocol/sdk/server/mcp.js'), {
  peer: '@modelcontextprotocol/sdk',
  needer: '@agent-trace/testing/mcp',
  range: '^1.20.0',
});
const fake = await import('./fake-mcp-server.js');

/** A scriptable MCP server in this process, over the SDK's in-memory transport. */
export const fakeMcpServer: typeof fake.fakeMcpServer = fake.fakeMcpServer;
export type { FakeMcpCall, FakeMcpServer, FakeMcpStep, FakeMcpTool } from './fake-mcp-server.js';
