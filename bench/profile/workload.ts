/**
 * A workload run under `node --cpu-prof` by `bench/profile.ts`, compiled as the bench's cells are:
 * `jsonl` (runs of 100 steps through the loop into a JSONL trace), `bare` (the same runs, no sink)
 * or `mcp` (300 MCP tool calls a run through the loop on an in-memory server).
 * Usage: node workload.mjs <name> <seconds>
 */
import { connectMcp } from '@agent-trace/core/mcp';
import { addServer, addThroughLoop } from '../mcp-call.js';
import { agentTraceBare, agentTraceJsonl } from '../peers/agent-trace.js';

const [name = 'jsonl', secondsText = '8'] = process.argv.slice(2);
const until = performance.now() + Number(secondsText) * 1000;

async function loopRuns(steps: number): Promise<number> {
  const subject = name === 'bare' ? agentTraceBare() : agentTraceJsonl();
  let runs = 0;
  for (; performance.now() < until; runs++) {
    const prepared = await subject.prepare(steps);
    await prepared.run();
    await prepared.finish();
  }
  await subject.close?.();
  return runs;
}

async function mcpRuns(calls: number): Promise<number> {
  await using mcp = await connectMcp({ mcpServers: { math: { transport: addServer() } } });
  let runs = 0;
  for (; performance.now() < until; runs++) await addThroughLoop(mcp.tools, calls);
  return runs;
}

const runs = name === 'mcp' ? await mcpRuns(300) : await loopRuns(100);
process.stdout.write(`${JSON.stringify({ name, runs })}\n`);
