import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ToolCallError } from '../../kernel/errors/tool-call-error.js';
import { neverAborted } from '../../kernel/tool/execute-tool-call.js';
import type { AnyTool, ToolContext } from '../../kernel/tool/tool.js';

/** Where an MCP tool comes from, as its `tool_start` and `tool_end` record it. */
export interface McpToolOrigin {
  readonly server: string;
  readonly transport: 'stdio' | 'http' | 'memory';
}

/** A tool as an MCP server lists it. */
export interface ListedMcpTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
}

/** The connected server a tool calls: its client, and what it last wrote to stderr. */
export interface McpServerLink extends McpToolOrigin {
  readonly client: Client;
  /** The tail of the server's stderr (stdio servers), for the error of a server that died. */
  stderrTail(): string;
  /** Why the connection closed, once it has; undefined while it is open. */
  closedBecause(): string | undefined;
}

/** An MCP part of a tool result that is not text, kept typed for the model and the trace. */
export type McpResultPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly mimeType: string; readonly data: string }
  | { readonly type: string; readonly [key: string]: unknown };

/**
 * An agent-trace tool that calls `listed` on `link`'s server. Arguments are checked against the
 * tool's JSON Schema (as zod issues, fed back to the model like any tool's); the definition the
 * model sees is the server's own. A result is its `structuredContent`, or its text, or its typed
 * parts; `isError` becomes a tool error the model reads, not retried.
 */
export function mcpTool(
  listed: ListedMcpTool,
  name: string,
  link: McpServerLink,
  timeoutMs: number,
): AnyTool & { readonly origin: McpToolOrigin } {
  const description = listed.description ?? '';
  return {
    name,
    description,
    input: inputSchemaOf(listed),
    // The SDK times the call out itself (and cancels it on the server); the loop need not.
    timeoutMs: undefined,
    origin: { server: link.server, transport: link.transport },
    definition: { name, description, inputSchema: listed.inputSchema },
    execute: (input: unknown, context: ToolContext) =>
      callMcpTool(listed.name, name, link, input, context, timeoutMs),
  };
}

/** The tool's JSON Schema as a zod schema; a schema zod cannot read is left to the server to check. */
function inputSchemaOf(listed: ListedMcpTool): z.ZodType {
  try {
    return z.fromJSONSchema(listed.inputSchema);
  } catch {
    return z.record(z.string(), z.unknown());
  }
}

async function callMcpTool(
  serverName: string,
  name: string,
  link: McpServerLink,
  input: unknown,
  context: ToolContext,
  timeoutMs: number,
): Promise<unknown> {
  // A signal of the call's own: the SDK adds an abort listener to the signal it is given and never
  // removes it, which on the run's signal would pile up call after call. A run that cannot be
  // aborted gives the SDK no signal at all (a controller a call is a cost of its own).
  const { abortSignal } = context;
  const call = abortSignal === neverAborted ? undefined : new AbortController();
  const onAbort = () => call?.abort(abortSignal.reason);
  if (call !== undefined) abortSignal.addEventListener('abort', onAbort, { once: true });
  let result;
  try {
    // An abort or the timeout makes the SDK send notifications/cancelled to the server.
    // The call's trace context goes in the request's _meta, so a traced server can join the trace.
    const meta = context.traceHeaders?.();
    result = await link.client.callTool(
      {
        name: serverName,
        arguments: input as Record<string, unknown>,
        ...(meta === undefined ? {} : { _meta: { ...meta } }),
      },
      undefined,
      call === undefined ? { timeout: timeoutMs } : { signal: call.signal, timeout: timeoutMs },
    );
  } catch (error) {
    if (abortSignal.aborted) throw error;
    if ((error as { code?: unknown }).code === ErrorCode.RequestTimeout) {
      throw new ToolCallError({
        kind: 'timeout',
        toolName: name,
        message: `Tool '${name}' (MCP server '${link.server}') timed out after ${timeoutMs} ms and was cancelled. Try again with a simpler request, or answer without this tool.`,
        cause: error,
      });
    }
    throw serverFailure(name, link, error);
  } finally {
    if (call !== undefined) abortSignal.removeEventListener('abort', onAbort);
  }
  if (result.isError === true) {
    throw new ToolCallError({
      kind: 'tool_error',
      toolName: name,
      message: `Tool '${name}' (MCP server '${link.server}') answered with an error: ${textOf(result.content) || 'no message'}`,
    });
  }
  return resultOf(result as CallResult);
}

function serverFailure(name: string, link: McpServerLink, error: unknown): ToolCallError {
  const closed = link.closedBecause();
  const tail = link.stderrTail().trim();
  const what = error instanceof Error ? error.message : String(error);
  return new ToolCallError({
    kind: closed === undefined ? 'execution_failed' : 'server_failed',
    toolName: name,
    message: `Tool '${name}' failed: MCP server '${link.server}' (${link.transport}) ${closed === undefined ? `answered: ${what}` : `is gone (${closed})`}.${tail === '' ? '' : ` Its stderr ends with:\n${tail}`}`,
    cause: error,
  });
}

interface CallResult {
  readonly content?: unknown;
  readonly structuredContent?: unknown;
}

function resultOf(result: CallResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const parts = Array.isArray(result.content) ? (result.content as McpResultPart[]) : [];
  if (parts.every(part => part.type === 'text')) return textOf(parts);
  return parts.map(part =>
    part.type === 'image' ? { type: 'image', mimeType: part.mimeType, data: part.data } : part,
  );
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return (content as McpResultPart[])
    .filter((part): part is { type: 'text'; text: string } => part.type === 'text')
    .map(part => part.text)
    .join('\n');
}
