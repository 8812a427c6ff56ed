/**
 * What recording costs an OpenAI Agents SDK agent: the same `run` over N turns (a tool call a turn,
 * the model `openaiAgentsModel` over a FakeLLM script, which keeps response spans as the SDK's own
 * OpenAI model does) with the SDK's tracing off, on with a processor that does nothing (what the
 * SDK's own spans cost), and with agent-trace's processor writing to memory and to a JSONL file.
 * Interleaved rounds; µs a step and the ratio to tracing off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTraceProcessor, openaiAgentsModel } from '@agent-trace/openai-agents';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink, memorySink } from '@agent-trace/trace';
import {
  Agent,
  run,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  type TracingProcessor,
} from '@openai/agents';
import { z } from 'zod';
import { interleaved, ratio, table } from './measure.js';
import { addScript } from './scenario.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** A tracing processor that does nothing: the SDK's own tracing cost, with no export. */
const noop: TracingProcessor = {
  onTraceStart: () => Promise.resolve(),
  onTraceEnd: () => Promise.resolve(),
  onSpanStart: () => Promise.resolve(),
  onSpanEnd: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};

/** µs a step, by way of recording. */
export interface OpenaiAgentsOverheadResult {
  readonly steps: number;
  readonly off: number;
  readonly noop: number;
  readonly memory: number;
  readonly jsonl: number;
}

export async function measureOpenaiAgentsOverhead(
  steps = 100,
  rounds = 5,
): Promise<OpenaiAgentsOverheadResult> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-bench-openai-agents-'));
  let files = 0;
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
  const times = await interleaved(
    {
      off: () => loop(undefined),
      noop: () => loop(noop),
      memory: async () => {
        const processor = agentTraceProcessor({ trace: memorySink() });
        await loop(processor);
        await processor.flush();
      },
      jsonl: async () => {
        const sink = jsonlSink(join(folder, `${files++}.jsonl`));
        const processor = agentTraceProcessor({ trace: sink });
        await loop(processor);
        await processor.flush();
        await sink.close();
      },
    },
    rounds,
  );
  setTracingDisabled(true);
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
export function formatOpenaiAgentsOverhead(result: OpenaiAgentsOverheadResult): string {
  return table([
    ['OpenAI Agents SDK run', 'µs a step', '/ off'],
    ['tracing off', result.off.toFixed(1), '1.00×'],
    [
      'tracing on, a processor that does nothing',
      result.noop.toFixed(1),
      ratio(result.noop / result.off),
    ],
    ['agentTraceProcessor → memory', result.memory.toFixed(1), ratio(result.memory / result.off)],
    ['agentTraceProcessor → JSONL', result.jsonl.toFixed(1), ratio(result.jsonl / result.off)],
  ]);
}
