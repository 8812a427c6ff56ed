import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { AgentTraceError } from '../../kernel/errors/agent-trace-error.js';
import type { AnyTool } from '../../kernel/tool/tool.js';
import {
  checkMcpConfig,
  isStdioServer,
  isTransportServer,
  type McpConfig,
  type McpServerConfig,
} from './mcp-config.js';
import { mcpTool, type ListedMcpTool, type McpServerLink, type McpToolOrigin } from './mcp-tool.js';
import { defined } from '../../kernel/util/defined.js';
import { trackConnection } from '../../kernel/tool/open-connections.js';
import { recallServer, type RecordedServer } from '../../kernel/tool/recorded-servers.js';
import { recalledTools } from './recalled-tools.js';

/** Options of {@link connectMcp}. */
export interface ConnectMcpOptions {
  /** How long one tool call may take; past it the call fails as a timeout and is cancelled. @defaultValue 60000 */
  timeoutMs?: number;
  /**
   * How tools are named for the model: as the server names them, prefixed with the server's name
   * (`weather__lookup`) only where two servers expose the same name (`clashes`), or always.
   * @defaultValue 'clashes'
   */
  prefix?: 'clashes' | 'always';
}

/** The connected servers: their tools, ready for `agent({ tools })`, and how to close them. */
export interface McpServers extends AsyncDisposable {
  /** Every server's tools, named by the `prefix` rule; refreshed when a server says its list changed. */
  readonly tools: readonly AnyTool[];
  /** Each server, its transport, the names its tools are offered under, and its stderr so far. */
  readonly servers: readonly McpServerInfo[];
  /** Closes every connection (a stdio server's process ends with it). */
  close(): Promise<void>;
}

/** A connected server, as {@link McpServers} lists it. */
export interface McpServerInfo {
  readonly name: string;
  readonly transport: McpToolOrigin['transport'];
  readonly tools: readonly string[];
  /** The last 2,000 characters a stdio server wrote to stderr ('' for HTTP). */
  stderr(): string;
}

/** An MCP server could not be started or reached. */
export class McpConnectionError extends AgentTraceError {
  constructor(message: string, cause: unknown) {
    super({ message, cause });
    this.name = 'McpConnectionError';
  }
}

const stderrKept = 2000;

/**
 * Connects to every server of an `mcpServers` configuration (stdio or Streamable HTTP), lists
 * their tools once, and gives them as agent-trace tools. Close it when done (`await using`, or
 * `close()`): stdio servers are child processes.
 *
 * @example
 * ```ts
 * await using mcp = await connectMcp({ mcpServers: { files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } });
 * const result = await run(agent({ name: 'a', model, tools: [...mcp.tools] }), 'List the files');
 * ```
 */
export async function connectMcp(
  config: McpConfig,
  options: ConnectMcpOptions = {},
): Promise<McpServers> {
  checkMcpConfig(config);
  const { timeoutMs = 60_000, prefix = 'clashes' } = options;
  const links: McpServerLink[] = [];
  const listed = new Map<McpServerLink, ListedMcpTool[]>();
  const recalled: RecordedServer[] = [];
  let tools: AnyTool[] = [];
  let servers: McpServers['servers'] = [];
  const rebuild = (): void => {
    const named = nameTools(links, listed, prefix, timeoutMs);
    tools = [...named.tools, ...recalled.flatMap(recalledTools)];
    servers = [...named.servers, ...recalled.map(recalledInfo)];
  };
  try {
    for (const [name, server] of Object.entries(config.mcpServers)) {
      const link = await connectOrRecall(name, server, recalled);
      if (link === undefined) continue;
      links.push(link);
      listed.set(link, await listAll(link));
      link.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        listed.set(link, await listAll(link));
        rebuild();
      });
    }
  } catch (error) {
    await Promise.allSettled(links.map(link => link.client.close()));
    throw error;
  }
  rebuild();
  const untrack = trackConnection(() => close());
  const close = async (): Promise<void> => {
    untrack();
    await Promise.allSettled(links.map(link => link.client.close()));
  };
  return {
    get tools() {
      return tools;
    },
    get servers() {
      return servers;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * Connects to the server; one that cannot be reached is taken from the recording a rerun set
 * (`useRecordedServers`) when it holds that server (undefined is returned, the server added to
 * `recalled`), and otherwise fails.
 */
async function connectOrRecall(
  name: string,
  server: McpServerConfig,
  recalled: RecordedServer[],
): Promise<McpServerLink | undefined> {
  try {
    return await connectServer(name, server);
  } catch (error) {
    const cause = error instanceof McpConnectionError ? error.cause : error;
    const why = cause instanceof Error ? cause.message : String(cause);
    const recorded = recallServer(name, why.split('\n')[0] ?? why);
    if (recorded === undefined) throw error;
    recalled.push(recorded);
    return undefined;
  }
}

function recalledInfo(server: RecordedServer): McpServerInfo {
  return {
    name: server.name,
    transport: server.transport as McpToolOrigin['transport'],
    tools: server.tools.map(tool => tool.name),
    stderr: () => '',
  };
}

async function connectServer(name: string, server: McpServerConfig): Promise<McpServerLink> {
  let stderr = '';
  let closed: string | undefined;
  const transport = transportFor(server);
  if (transport instanceof StdioClientTransport) {
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-stderrKept);
    });
  }
  const client = new Client({ name: 'agent-trace', version: '0.1.0' });
  // The client's own handler, not the transport's: the SDK uses the transport's to fail the calls
  // in flight when the connection closes.
  client.onclose = () =>
    (closed ??= isStdioServer(server) ? 'its process exited' : 'the connection closed');
  const where = isStdioServer(server)
    ? `the command '${server.command}'`
    : isTransportServer(server)
      ? 'its transport'
      : server.url;
  try {
    await client.connect(transport);
  } catch (error) {
    const tail = stderr.trim();
    throw new McpConnectionError(
      `MCP server '${name}' could not be connected (${where}): ${error instanceof Error ? error.message : String(error)}. Check that it starts and speaks MCP.${tail === '' ? '' : ` Its stderr ends with:\n${tail}`}`,
      error,
    );
  }
  return {
    server: name,
    transport: isStdioServer(server) ? 'stdio' : isTransportServer(server) ? 'memory' : 'http',
    client,
    stderrTail: () => stderr,
    closedBecause: () => closed,
  };
}

async function listAll(link: McpServerLink): Promise<ListedMcpTool[]> {
  const all: ListedMcpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await link.client.listTools(cursor === undefined ? {} : { cursor });
    all.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return all;
}

/**
 * Names every server's tools for the model. A name exposed by one server is kept as it is; a
 * name two servers expose is prefixed with each server's name (`docs__search`,
 * `web__search`), so no tool shadows another; with `prefix: 'always'`, every name is.
 */
function nameTools(
  links: readonly McpServerLink[],
  listed: ReadonlyMap<McpServerLink, readonly ListedMcpTool[]>,
  prefix: 'clashes' | 'always',
  timeoutMs: number,
): { tools: AnyTool[]; servers: McpServers['servers'] } {
  const owners = new Map<string, number>();
  for (const link of links)
    for (const tool of listed.get(link) ?? [])
      owners.set(tool.name, (owners.get(tool.name) ?? 0) + 1);
  const tools: AnyTool[] = [];
  const servers = links.map(link => {
    const names: string[] = [];
    for (const tool of listed.get(link) ?? []) {
      const prefixed = prefix === 'always' || (owners.get(tool.name) ?? 0) > 1;
      const name = toolName(prefixed ? `${link.server}__${tool.name}` : tool.name);
      names.push(name);
      tools.push(mcpTool(tool, name, link, timeoutMs));
    }
    return {
      name: link.server,
      transport: link.transport,
      tools: names,
      stderr: () => link.stderrTail(),
    };
  });
  return { tools, servers };
}

/** A name the providers accept: letters, digits, '_' and '-', at most 64 characters. */
function toolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

function transportFor(server: McpServerConfig): Transport {
  if (isTransportServer(server)) return server.transport as Transport;
  if (isStdioServer(server)) {
    return new StdioClientTransport({
      command: server.command,
      args: [...(server.args ?? [])],
      ...(server.env === undefined ? {} : { env: { ...server.env } }),
      ...defined('cwd', server.cwd),
      stderr: 'pipe',
    });
  }
  return new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { ...(server.headers ?? {}) } },
  });
}
