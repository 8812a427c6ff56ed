/**
 * What recording costs a LangGraph agent: the prebuilt ReAct agent over N steps (a tool call a
 * step, `langchainModel` over a FakeLLM script) with no callbacks, with a callback handler that
 * does nothing (what LangChain's callback system costs), and with agent-trace's handler writing
 * to memory and to a JSONL file. Interleaved rounds; µs a step and the ratio to no callbacks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTraceCallbacks, langchainModel } from '@agent-trace/langgraph';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink } from '@agent-trace/trace';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { interleaved, ratio, table } from './measure.js';
import { addScript } from './scenario.js';

const add = tool(({ a, b }: { a: number; b: number }) => String(a + b), {
  name: 'add',
  description: 'Add two numbers',
  schema: z.object({ a: z.number(), b: z.number() }),
});

/** A callback handler that does nothing, awaited as agent-trace's is: LangChain's own cost. */
class NoopHandler extends BaseCallbackHandler {
  name = 'noop';
  override awaitHandlers = true;
  override handleChainStart(): void {}
  override handleChatModelStart(): void {}
  override handleLLMEnd(): void {}
  override handleToolStart(): void {}
  override handleToolEnd(): void {}
  override handleChainEnd(): void {}
}

/** µs a step, by way of recording. */
export interface LanggraphOverheadResult {
  readonly steps: number;
  readonly off: number;
  readonly noop: number;
  readonly memory: number;
  readonly jsonl: number;
}

export async function measureLanggraphOverhead(
  steps = 100,
  rounds = 5,
): Promise<LanggraphOverheadResult> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-bench-langgraph-'));
  let files = 0;
  const loop = async (callbacks: BaseCallbackHandler | undefined) => {
    const agent = createReactAgent({
      llm: langchainModel(fakeLLM(addScript(steps)), { agent: 'bench' }),
      tools: [add],
      name: 'bench',
    });
    const state = await agent.invoke(
      { messages: [{ role: 'user', content: 'go' }] },
      {
        recursionLimit: 2 * steps + 2,
        ...(callbacks === undefined ? {} : { callbacks: [callbacks] }),
      },
    );
    if (state.messages.at(-1)?.content !== 'done') throw new Error('the run did not end with done');
  };
  const times = await interleaved(
    {
      off: () => loop(undefined),
      noop: () => loop(new NoopHandler()),
      memory: async () => {
        const callbacks = agentTraceCallbacks({ trace: memorySink() });
        await loop(callbacks);
        await callbacks.flush();
      },
      jsonl: async () => {
        const sink = jsonlSink(join(folder, `${files++}.jsonl`));
        const callbacks = agentTraceCallbacks({ trace: sink });
        await loop(callbacks);
        await callbacks.flush();
        await sink.close();
      },
    },
    rounds,
  );
  rmSync(folder, { recursive: true, force: true });
  const per = (ms: number) => (ms * 1000) / steps;
  return {
    steps,
    off: per(times.off),
    noop: per(times.noop),
    memory: per(times.memory),
    jsonl: per(times.jsonl),
  };
}

/** The benchmark's table. */
export function formatLanggraphOverhead(result: LanggraphOverheadResult): string {
  return table([
    ['LangGraph prebuilt ReAct agent', 'µs a step', '/ off'],
    ['no callbacks', result.off.toFixed(1), '1.00×'],
    [
      'a callback handler that does nothing',
      result.noop.toFixed(1),
      ratio(result.noop / result.off),
    ],
    ['agentTraceCallbacks → memory', result.memory.toFixed(1), ratio(result.memory / result.off)],
    ['agentTraceCallbacks → JSONL', result.jsonl.toFixed(1), ratio(result.jsonl / result.off)],
  ]);
}
