/**
 * The cost of an MCP tool call through the loop, against calling the same MCP server directly
 * with the SDK client: both sides call `add` N times; the loop side also makes its model calls (a
 * FakeLLM) and tool-phase bookkeeping, which is the overhead measured. Once with an in-memory
 * server (the loop's own cost laid bare), once with a server process over stdio (where users'
 * servers live). Over stdio, also the direct calls each followed by as much plain work as the
 * loop's own step, against the same calls back to back: what a call costs after the client was
 * busy.
 */
import { agent, run, type AnyTool } from '@agent-trace/core';
import { connectMcp } from '@agent-trace/core/mcp';
import { fakeLLM } from '@agent-trace/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { addArguments, addScript, addTool } from './scenario.js';
import { interleaved, ratio } from './measure.js';

/** What the MCP benchmark measured: µs per `add` call. */
export interface McpCallResult {
  calls: number;
  directMicroseconds: number;
  loopMicroseconds: number;
  /**
   * The same loop (the same scripted model) calling a local `add` tool instead: the loop's own
   * step, which an MCP call through the loop pays on top of the call itself.
   */
  localMicroseconds: number;
  /**
   * The same against a server process over stdio, when the benchmark was given one; with the
   * direct call again, each followed by as much plain work as the loop's own step takes.
   */
  stdio?: {
    directMicroseconds: number;
    loopMicroseconds: number;
    localMicroseconds: number;
    spaced: SpacedCalls;
  };
}

/**
 * Direct calls each followed by `stepMicroseconds` of plain work on the CPU (as long as the loop's
 * own step): a call's time then, the work taken off. Over stdio a call takes longer when the
 * client was busy before it, whatever it was busy with.
 */
export interface SpacedCalls {
  readonly stepMicroseconds: number;
  readonly callMicroseconds: number;
  /** The direct calls back to back, in the same rounds. */
  readonly backToBackMicroseconds: number;
}

/** Spends `microseconds` on the CPU and nothing else. */
function busy(microseconds: number): void {
  const until = performance.now() + microseconds / 1000;
  while (performance.now() < until);
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

/** `calls` direct calls, each followed by `spacing` µs of plain work. */
async function directCalls(client: Client, calls: number, spacing: number): Promise<void> {
  for (let index = 0; index < calls; index++) {
    await client.callTool({ name: 'add', arguments: addArguments(index) });
    if (spacing > 0) busy(spacing);
  }
}

/**
 * µs a call each way, interleaved over `rounds`: `client` directly, `tools` through the loop, and
 * the loop with a local tool.
 */
async function eachWay(
  client: Client,
  tools: readonly AnyTool[],
  calls: number,
  rounds: number,
): Promise<{ directMicroseconds: number; loopMicroseconds: number; localMicroseconds: number }> {
  const times = await interleaved(
    {
      direct: () => directCalls(client, calls, 0),
      loop: () => addThroughLoop(tools, calls),
      local: () => addThroughLoop([addTool], calls),
    },
    rounds,
  );
  return {
    directMicroseconds: (times.direct * 1000) / calls,
    loopMicroseconds: (times.loop * 1000) / calls,
    localMicroseconds: (times.local * 1000) / calls,
  };
}

/**
 * Direct calls spaced by `stepMicroseconds` of plain work, interleaved with direct calls back to
 * back over `rounds`: a spaced call's time (the work taken off) over a back-to-back one's.
 */
async function spacedCalls(
  client: Client,
  calls: number,
  rounds: number,
  stepMicroseconds: number,
): Promise<SpacedCalls> {
  const times = await interleaved(
    {
      direct: () => directCalls(client, calls, 0),
      spaced: () => directCalls(client, calls, stepMicroseconds),
    },
    rounds,
  );
  return {
    stepMicroseconds,
    callMicroseconds: (times.spaced * 1000) / calls - stepMicroseconds,
    backToBackMicroseconds: (times.direct * 1000) / calls,
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
    return await eachWay(client, mcp.tools, calls, rounds);
  })();
  await client.close();
  if (stdioServer === undefined) return { calls, ...inMemory };
  const server = { command: process.execPath, args: [stdioServer] };
  const direct = new Client({ name: 'bench', version: '1.0.0' });
  await direct.connect(new StdioClientTransport(server));
  await using mcp = await connectMcp({ mcpServers: { math: server } });
  const ways = await eachWay(direct, mcp.tools, calls, rounds);
  // The direct calls again, spaced by the loop's own step as these rounds measured it.
  const spaced = await spacedCalls(direct, calls, rounds, ways.localMicroseconds);
  const stdio = { ...ways, spaced };
  await direct.close();
  return { calls, ...inMemory, stdio };
}

/**
 * What an MCP call costs through the loop beyond the loop's own step: (through the loop − the
 * loop with a local tool) over the direct call. 1.00× means the loop adds nothing to the call
 * itself but its step.
 */
export function mcpShareOverDirect(way: {
  directMicroseconds: number;
  loopMicroseconds: number;
  localMicroseconds: number;
}): number {
  return (way.loopMicroseconds - way.localMicroseconds) / way.directMicroseconds;
}

/** One way's line: direct, through the loop, the loop's own step, and the ratios. */
function wayLine(
  name: string,
  way: { directMicroseconds: number; loopMicroseconds: number; localMicroseconds: number },
): string {
  const us = (value: number) => `${value.toFixed(1)} µs`;
  return `${name}: client.callTool directly ${us(way.directMicroseconds)} a call · through the loop (model step + tool phase) ${us(way.loopMicroseconds)} · the same loop with a local tool ${us(way.localMicroseconds)} · loop / direct: ${ratio(way.loopMicroseconds / way.directMicroseconds)} · (loop − local) / direct: ${ratio(mcpShareOverDirect(way))}`;
}

/** The benchmark's lines. */
export function formatMcpCall(result: McpCallResult): string {
  return [
    `MCP tool call (${result.calls} calls, median of interleaved rounds)`,
    wayLine('an in-memory server', result),
    ...(result.stdio === undefined
      ? []
      : [wayLine('a server process over stdio', result.stdio), spacedLine(result.stdio)]),
  ].join('\n');
}

/** What a stdio call costs when the client spent the loop's step's time before it. */
function spacedLine(stdio: NonNullable<McpCallResult['stdio']>): string {
  const { stepMicroseconds, callMicroseconds, backToBackMicroseconds } = stdio.spaced;
  return `  directly, each call followed by ${stepMicroseconds.toFixed(1)} µs of plain work (as long as the loop's own step): ${callMicroseconds.toFixed(1)} µs a call with the work taken off, against ${backToBackMicroseconds.toFixed(1)} back to back in the same rounds (${ratio(callMicroseconds / backToBackMicroseconds)})`;
}
