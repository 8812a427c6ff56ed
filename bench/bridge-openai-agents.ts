/**
 * What recording costs an OpenAI Agents SDK agent: the same `run` over N turns (a tool call a turn,
 * the model `openaiAgentsModel` over a FakeLLM script, which keeps response spans as the SDK's own
 * OpenAI model does) with the SDK's tracing off, on with a processor that does nothing (what the
 * SDK's own spans cost), and with agent-trace's processor writing to memory and to a JSONL file.
 * Interleaved rounds; µs a step and the ratio to tracing off.
 */
import { agentTraceProcessor, openaiAgentsModel } from '@agent-trace/openai-agents';
import { fakeLLM } from '@agent-trace/testing';
import {
  Agent,
  run,
  setTraceProcessors,
  setTracingDisabled,
  type TracingProcessor,
} from '@openai/agents';
import { measureRecording, recordingTable, type RecordingOverhead } from './recording-overhead.js';
import { addScript } from './scenario.js';
import { add, noopProcessor as noop } from './peers/openai-agents.js';

/** µs a step, by way of recording. */
export type OpenaiAgentsOverheadResult = RecordingOverhead;

export async function measureOpenaiAgentsOverhead(
  steps = 100,
  rounds = 5,
): Promise<OpenaiAgentsOverheadResult> {
  const loop = async (processor: TracingProcessor | undefined) => {
    setTracingDisabled(processor === undefined);
    setTraceProcessors(processor === undefined ? [] : [processor]);
    const agent = new Agent({
      name: 'bench',
      tools: [add],
      model: openaiAgentsModel(fakeLLM(addScript(steps)), { agent: 'bench' }),
    });
    const result = await run(agent, 'go', { maxTurns: steps + 1 });
    if (result.finalOutput !== 'done')
      throw new Error(`the run ended with ${String(result.finalOutput)}`);
  };
  const result = await measureRecording(steps, rounds, {
    off: () => loop(undefined),
    noop: () => loop(noop),
    record: async trace => {
      const processor = agentTraceProcessor({ trace });
      await loop(processor);
      await processor.flush();
    },
  });
  setTracingDisabled(true);
  return result;
}

/** The benchmark's table. */
export function formatOpenaiAgentsOverhead(result: OpenaiAgentsOverheadResult): string {
  return recordingTable(
    {
      run: 'OpenAI Agents SDK run',
      off: 'tracing off',
      noop: 'tracing on, a processor that does nothing',
      recorder: 'agentTraceProcessor',
    },
    result,
  );
}
