/**
 * The cost of an MCP tool call through the loop, against calling the same in-memory MCP server
 * directly with the SDK client: both sides call `add` N times; the loop side also makes its model
 * calls (a FakeLLM) and tool-phase bookkeeping, which is the overhead measured.
 */
import { agent, run, type AnyTool } from '@agent-trace/core';
import { connectMcp } from '@agent-trace/core/mcp';
import { fakeLLM } from '@agent-trace/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { addArguments, addScript } from './scenario.js';
import { interleaved, ratio } from './measure.js';

/** What the MCP benchmark measured: µs per `add` call. */
export interface McpCallResult {
  calls: number;
  directMicroseconds: number;
  loopMicroseconds: number;
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
  await run(
    agent({
      name: 'adder',
      model: fakeLLM(addScript(steps)),
      tools: [...tools],
      limits: { maxSteps: steps, maxToolCallsPerTool: steps },
    }),
    'go',
  );
}

/** Measures `calls` add calls both ways, interleaved over `rounds`. */
export async function measureMcpCall(calls = 200, rounds = 5): Promise<McpCallResult> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(addServer());
  await using mcp = await connectMcp({ mcpServers: { math: { transport: addServer() } } });
  const times = await interleaved(
    {
      direct: async () => {
        for (let index = 0; index < calls; index++)
          await client.callTool({ name: 'add', arguments: addArguments(index) });
      },
      loop: () => addThroughLoop(mcp.tools, calls),
    },
    rounds,
  );
  await client.close();
  return {
    calls,
    directMicroseconds: (times.direct * 1000) / calls,
    loopMicroseconds: (times.loop * 1000) / calls,
  };
}

/** The benchmark's lines. */
export function formatMcpCall(result: McpCallResult): string {
  return [
    `MCP tool call (in-memory server, ${result.calls} calls, median of interleaved rounds)`,
    `client.callTool directly: ${result.directMicroseconds.toFixed(1)} µs a call · through the loop (model step + tool phase): ${result.loopMicroseconds.toFixed(1)} µs a call · loop / direct: ${ratio(result.loopMicroseconds / result.directMicroseconds)}`,
  ].join('\n');
}
