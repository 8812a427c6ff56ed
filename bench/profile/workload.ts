/**
 * A workload run under `node --cpu-prof` by `bench/profile.ts`: `jsonl` (runs of 100 steps
 * through the loop into a JSONL trace), `bare` (the same runs, no sink) or `mcp` (MCP tool calls
 * through the loop on an in-memory server). Usage: tsx bench/profile/workload.ts <name> <seconds>
 */
import { run } from '@agent-trace/core';
import { connectMcp } from '@agent-trace/core/mcp';
import { fakeLLM } from '@agent-trace/testing';
import { agent } from '@agent-trace/core';
import { addServer } from '../mcp-call.js';
import { agentTraceBare, agentTraceJsonl } from '../peers/agent-trace.js';
import { addScript } from '../scenario.js';

const [name = 'jsonl', secondsText = '8'] = process.argv.slice(2);
const until = performance.now() + Number(secondsText) * 1000;

async function loopRuns(steps: number): Promise<number> {
  const subject = name === 'bare' ? agentTraceBare() : agentTraceJsonl();
  let runs = 0;
  while (performance.now() < until) {
    const prepared = await subject.prepare(steps);
    await prepared.run();
    await prepared.finish();
    runs++;
  }
  await subject.close?.();
  return runs;
}

async function mcpRuns(calls: number): Promise<number> {
  await using mcp = await connectMcp({ mcpServers: { math: { transport: addServer() } } });
  let runs = 0;
  while (performance.now() < until) {
    const steps = calls + 1;
    await run(
      agent({
        name: 'adder',
        model: fakeLLM(addScript(steps)),
        tools: [...mcp.tools],
        limits: { maxSteps: steps, maxToolCallsPerTool: steps },
      }),
      'go',
    );
    runs++;
  }
  return runs;
}

const runs = name === 'mcp' ? await mcpRuns(300) : await loopRuns(100);
process.stdout.write(`${JSON.stringify({ name, runs })}\n`);
