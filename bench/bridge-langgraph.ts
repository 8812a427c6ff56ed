/**
 * What recording costs a LangGraph agent: the prebuilt ReAct agent over N steps (a tool call a
 * step, `langchainModel` over a FakeLLM script) with no callbacks, with a callback handler that
 * does nothing (what LangChain's callback system costs), and with agent-trace's handler writing
 * to memory and to a JSONL file. Interleaved rounds; µs a step and the ratio to no callbacks.
 */
import { agentTraceCallbacks, langchainModel } from '@agent-trace/langgraph';
import { fakeLLM } from '@agent-trace/testing';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { measureRecording, recordingTable, type RecordingOverhead } from './recording-overhead.js';
import { addScript } from './scenario.js';
import { add } from './peers/langgraph.js';

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
export type LanggraphOverheadResult = RecordingOverhead;

export async function measureLanggraphOverhead(
  steps = 100,
  rounds = 5,
): Promise<LanggraphOverheadResult> {
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
  return measureRecording(steps, rounds, {
    off: () => loop(undefined),
    noop: () => loop(new NoopHandler()),
    record: async trace => {
      const callbacks = agentTraceCallbacks({ trace });
      await loop(callbacks);
      await callbacks.flush();
    },
  });
}

/** The benchmark's table. */
export function formatLanggraphOverhead(result: LanggraphOverheadResult): string {
  return recordingTable(
    {
      run: 'LangGraph prebuilt ReAct agent',
      off: 'no callbacks',
      noop: 'a callback handler that does nothing',
      recorder: 'agentTraceCallbacks',
    },
    result,
  );
}
