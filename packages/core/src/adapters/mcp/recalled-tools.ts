import { z } from 'zod';
import { ToolCallError } from '../../kernel/errors/tool-call-error.js';
import type { AnyTool } from '../../kernel/tool/tool.js';
import type { RecordedServer } from '../../kernel/tool/recorded-servers.js';
import type { McpToolOrigin } from './mcp-tool.js';

/**
 * The tools of an MCP server that could not be reached, as a recording lists them: offered to the
 * model with the recorded names, descriptions and schemas, so a rerun sends the requests it
 * recorded; a call fails as the server being gone, since a rerun answers calls from the
 * recording before they reach a tool.
 */
export function recalledTools(server: RecordedServer): (AnyTool & { origin: McpToolOrigin })[] {
  const origin: McpToolOrigin = {
    server: server.name,
    transport: server.transport as McpToolOrigin['transport'],
  };
  return server.tools.map(({ name, description, parameters }) => {
    const inputSchema = parameters as { readonly type: 'object'; readonly [key: string]: unknown };
    return {
      name,
      description,
      input: schemaOf(inputSchema),
      timeoutMs: undefined,
      origin,
      definition: { name, description, inputSchema },
      execute: () => {
        throw new ToolCallError({
          kind: 'server_failed',
          toolName: name,
          message: `Tool '${name}' failed: MCP server '${server.name}' is not connected (its tools were taken from a recording). Start the server to call it live.`,
        });
      },
    };
  });
}

function schemaOf(inputSchema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(inputSchema);
  } catch {
    return z.record(z.string(), z.unknown());
  }
}
