/**
 * The cost of an MCP tool call through the loop, against calling the same MCP server directly
 * with the SDK client: both sides call `add` N times; the loop side also makes its model calls (a
 * FakeLLM) and tool-phase bookkeeping, which is the overhead measured. Once with an in-memory
 * server (the loop's own cost laid bare), once with a server process over stdio (where users'
 * servers live).
 */
import { agent, run, type AnyTool } from '@agent-trace/core';
import { connectMcp } from '@agent-trace/core/mcp';
import { fakeLLM } from '@agent-trace/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { addArguments, addScript } from './scenario.js';
import { interleaved, ratio } from './measure.js';

/** What the MCP benchmark measured: µs per `add` call. */
export interface McpCallResult {
  calls: number;
  directMicroseconds: number;
  loopMicroseconds: number;
  /** The same against a server process over stdio, when the benchmark was given one. */
  stdio?: { directMicroseconds: number; loopMicroseconds: number };
}

/** A fresh in-memory MCP server with the `add` tool, and a client transport to it. */
export function addServer(): InMemoryTransport {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const mcp = new McpServer({ name: 'math', version: '1.0.0' });
  mcp.registerTool(
    'add',
    { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } },
    ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }),
  );
  void mcp.connect(server);
  return client;
}

/** One run of the loop that calls `add` (one of `tools`) `calls` times, then answers. */
export async function addThroughLoop(tools: readonly AnyTool[], calls: number): Promise<void> {
  const steps = calls + 1;
  const result = await run(
    agent({
      name: 'adder',
      model: fakeLLM(addScript(steps)),
      tools: [...tools],
      limits: { maxSteps: steps, maxToolCallsPerTool: steps },
    }),
    'go',
  );
  // A run that failed early would time nothing but its failure.
  if (result.stopReason !== 'completed' || result.toolCalls.some(call => call.error !== undefined))
    throw new Error(
      `the loop's MCP run did not complete: ${result.stopReason} ${result.detail ?? ''} ${result.toolCalls.find(call => call.error !== undefined)?.error ?? ''}`,
    );
}

/** µs a call both ways, interleaved over `rounds`: `client` directly, and `tools` through the loop. */
async function bothWays(
  client: Client,
  tools: readonly AnyTool[],
  calls: number,
  rounds: number,
): Promise<{ directMicroseconds: number; loopMicroseconds: number }> {
  const times = await interleaved(
    {
      direct: async () => {
        for (let index = 0; index < calls; index++)
          await client.callTool({ name: 'add', arguments: addArguments(index) });
      },
      loop: () => addThroughLoop(tools, calls),
    },
    rounds,
  );
  return {
    directMicroseconds: (times.direct * 1000) / calls,
    loopMicroseconds: (times.loop * 1000) / calls,
  };
}

/**
 * Measures `calls` add calls both ways, interleaved over `rounds`: in memory, and with
 * `stdioServer` (a compiled server script) also against a server process over stdio.
 */
export async function measureMcpCall(
  calls = 200,
  rounds = 5,
  stdioServer?: string,
): Promise<McpCallResult> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(addServer());
  const inMemory = await (async () => {
    await using mcp = await connectMcp({ mcpServers: { math: { transport: addServer() } } });
    return await bothWays(client, mcp.tools, calls, rounds);
  })();
  await client.close();
  if (stdioServer === undefined) return { calls, ...inMemory };
  const server = { command: process.execPath, args: [stdioServer] };
  const direct = new Client({ name: 'bench', version: '1.0.0' });
  await direct.connect(new StdioClientTransport(server));
  await using mcp = await connectMcp({ mcpServers: { math: server } });
  const stdio = await bothWays(direct, mcp.tools, calls, rounds);
  await direct.close();
  return { calls, ...inMemory, stdio };
}

/** The benchmark's lines. */
export function formatMcpCall(result: McpCallResult): string {
  return [
    `MCP tool call (in-memory server, ${result.calls} calls, median of interleaved rounds)`,
    `client.callTool directly: ${result.directMicroseconds.toFixed(1)} µs a call · through the loop (model step + tool phase): ${result.loopMicroseconds.toFixed(1)} µs a call · loop / direct: ${ratio(result.loopMicroseconds / result.directMicroseconds)}`,
    ...(result.stdio === undefined
      ? []
      : [
          `a server process over stdio: client.callTool directly ${result.stdio.directMicroseconds.toFixed(1)} µs a call · through the loop ${result.stdio.loopMicroseconds.toFixed(1)} µs a call · loop / direct: ${ratio(result.stdio.loopMicroseconds / result.stdio.directMicroseconds)}`,
        ]),
  ].join('\n');
}
