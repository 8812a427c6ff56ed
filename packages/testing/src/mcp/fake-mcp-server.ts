import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { z } from 'zod';
import { trackFake } from '../fake-registry.js';

/** A scripted outcome of one call: a result (text, or an object as structured content), or an error. */
export type FakeMcpStep = { readonly result: unknown } | { readonly error: string };

/** One tool of a fake MCP server. */
export interface FakeMcpTool {
  readonly description?: string;
  /** The arguments, as a zod shape (`{ q: z.string() }`). @defaultValue no arguments */
  readonly input?: z.ZodRawShape;
  /** The outcomes of the calls, in order. */
  readonly steps?: readonly FakeMcpStep[];
  /** Answers the calls after the scripted steps. Without it, such a call is an error result. */
  readonly respond?: (args: Record<string, unknown>) => unknown;
}

/** A call the fake server received. */
export interface FakeMcpCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/** A scriptable MCP server in this process: see {@link fakeMcpServer}. */
export interface FakeMcpServer {
  readonly name: string;
  /** Every call received, in order. */
  readonly calls: readonly FakeMcpCall[];
  /**
   * A fresh in-memory client transport to this server, for `connectMcp`:
   * `{ mcpServers: { docs: { transport: server.transport() } } }`.
   */
  transport(): object;
  /** Throws when a tool has scripted steps no call used. */
  assertComplete(): void;
}

/**
 * A fake MCP server, scripted like `fakeTool`: each tool answers its calls with its steps in
 * order, then with `respond`. A string result is text content; an object is structured content
 * (and its JSON as text); an error step is an `isError` result. It speaks the real protocol, over
 * the MCP SDK's in-memory transport, so `connectMcp` and the loop run exactly as with a real
 * server. With the vitest setup, unused steps fail the test.
 *
 * @example
 * ```ts
 * const docs = fakeMcpServer('docs', { search: { input: { q: z.string() }, steps: [{ result: 'doc-1' }] } });
 * await using mcp = await connectMcp({ mcpServers: { docs: { transport: docs.transport() } } });
 * ```
 */
export function fakeMcpServer(
  name: string,
  tools: Readonly<Record<string, FakeMcpTool>>,
): FakeMcpServer {
  const calls: FakeMcpCall[] = [];
  const used = new Map<string, number>();
  const answer = (tool: string, script: FakeMcpTool, args: Record<string, unknown>) => {
    calls.push({ tool, args });
    const index = used.get(tool) ?? 0;
    used.set(tool, index + 1);
    const step: FakeMcpStep | undefined = script.steps?.[index];
    if (step !== undefined) return toResult(step);
    if (script.respond !== undefined) return toResult({ result: script.respond(args) });
    return toResult({
      error: `Fake MCP server '${name}': tool '${tool}' was called ${index + 1} times but has ${script.steps?.length ?? 0} scripted steps and no respond function.`,
    });
  };
  const fake: FakeMcpServer = {
    name,
    calls,
    transport() {
      const [client, server] = InMemoryTransport.createLinkedPair();
      const mcp = new McpServer({ name, version: '1.0.0' });
      for (const [tool, script] of Object.entries(tools)) {
        mcp.registerTool(
          tool,
          { description: script.description ?? '', inputSchema: script.input ?? {} },
          (args: Record<string, unknown>) => answer(tool, script, args),
        );
      }
      void mcp.connect(server);
      return client;
    },
    assertComplete() {
      for (const [tool, script] of Object.entries(tools)) {
        const unused = (script.steps?.length ?? 0) - (used.get(tool) ?? 0);
        if (unused > 0)
          throw new Error(
            `Fake MCP server '${name}': tool '${tool}' has ${unused} unused step${unused === 1 ? '' : 's'}. Remove them, or find out why the agent did not call it.`,
          );
      }
    },
  };
  trackFake(fake);
  return fake;
}

function toResult(step: FakeMcpStep) {
  if ('error' in step)
    return { content: [{ type: 'text' as const, text: step.error }], isError: true };
  if (typeof step.result === 'string')
    return { content: [{ type: 'text' as const, text: step.result }] };
  const structuredContent = step.result as Record<string, unknown>;
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }],
    structuredContent,
  };
}
