import { importPeer } from '../../kernel/util/import-peer.js';

// The MCP code imports the optional peer `@modelcontextprotocol/sdk`: check it first, for a clear error.
await importPeer(() => import('@modelcontextprotocol/sdk/client/index.js'), {
  peer: '@modelcontextprotocol/sdk',
  needer: '@agent-trace/core/mcp',
  range: '^1.20.0',
  runtime: true,
});
const connection = await import('./mcp-connection.js');

/**
 * Connects to the servers of an `mcpServers` configuration (stdio or Streamable HTTP) and gives
 * their tools as agent-trace tools. Close it when done (`await using`, or `close()`).
 */
export const connectMcp: typeof connection.connectMcp = connection.connectMcp;
/** An MCP server could not be started or reached. */
export const McpConnectionError: typeof connection.McpConnectionError =
  connection.McpConnectionError;
export type { ConnectMcpOptions, McpServerInfo, McpServers } from './mcp-connection.js';
export type {
  McpConfig,
  McpHttpServer,
  McpServerConfig,
  McpStdioServer,
  McpTransportServer,
} from './mcp-config.js';
export type { McpResultPart, McpToolOrigin } from './mcp-tool.js';
