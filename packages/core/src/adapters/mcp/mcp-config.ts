import { ConfigurationError } from '../../kernel/errors/configuration-error.js';

/** A server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServer {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the few variables the MCP SDK passes on (PATH, HOME, …); nothing else is inherited. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServer {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A server in this process, reached over a transport you made (the SDK's `InMemoryTransport`,
 * for tests; see `fakeMcpServer` in `@agent-trace/testing/mcp`).
 */
export interface McpTransportServer {
  /** An MCP SDK client transport, not yet started. */
  readonly transport: object;
}

/** One server of an `mcpServers` configuration. */
export type McpServerConfig = McpStdioServer | McpHttpServer | McpTransportServer;

/** The `mcpServers` configuration shape of Claude Desktop, Cursor and most MCP clients. */
export interface McpConfig {
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
}

const serverNamePattern = /^[A-Za-z0-9_-]{1,32}$/;

/** Checks a configuration, naming the server and the field that is wrong and how to fix it. */
export function checkMcpConfig(config: McpConfig): void {
  const servers = (config as { mcpServers?: unknown }).mcpServers;
  if (typeof servers !== 'object' || servers === null) {
    throw new ConfigurationError({
      option: 'mcpServers',
      message:
        'MCP configuration has no mcpServers object: pass { mcpServers: { weather: { command: "node", args: ["server.js"] } } }.',
    });
  }
  for (const [name, server] of Object.entries(servers as Record<string, unknown>)) {
    if (!serverNamePattern.test(name)) {
      throw new ConfigurationError({
        option: `mcpServers.${name}`,
        message: `MCP server name ${JSON.stringify(name)} is not usable in tool names: use letters, digits, '_' and '-' (1 to 32 characters).`,
      });
    }
    const shape = server as { command?: unknown; url?: unknown; transport?: unknown } | null;
    if (typeof shape?.transport === 'object' && shape.transport !== null) continue;
    const stdio = typeof shape?.command === 'string' && shape.command !== '';
    const http = typeof shape?.url === 'string' && URL.canParse(shape.url);
    if (stdio === http) {
      throw new ConfigurationError({
        option: `mcpServers.${name}`,
        message: `MCP server '${name}' needs either a command (stdio: { command, args, env, cwd }) or a url (Streamable HTTP: { url, headers }), not ${stdio ? 'both' : 'neither'}.`,
      });
    }
  }
}

/** True for a server started as a child process. */
export function isStdioServer(server: McpServerConfig): server is McpStdioServer {
  return 'command' in server;
}

/** True for a server reached over a transport given in the configuration. */
export function isTransportServer(server: McpServerConfig): server is McpTransportServer {
  return 'transport' in server;
}
