/**
 * What recording costs an AI SDK agent: the same `generateText` loop over N steps (a tool call a
 * step, the AI SDK's own mock model) with its telemetry off, with an integration that does
 * nothing (what the AI SDK's own telemetry events cost), and with agent-trace's integration
 * writing to memory and to a JSONL file. Interleaved rounds; µs a step and the ratio
 * to telemetry off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTraceTelemetry } from '@agent-trace/ai-sdk';
import { jsonlSink, memorySink } from '@agent-trace/trace';
import { generateText, isStepCount, type Telemetry } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { interleaved, ratio, table } from './measure.js';
import { add, usage } from './peers/vercel-ai.js';

/** A mock model that calls `add` for `steps − 1` steps, then answers. */
function mockModel(steps: number) {
  let call = 0;
  return new MockLanguageModelV4({
    doGenerate: () => {
      const index = call++;
      const last = index >= steps - 1;
      return Promise.resolve({
        content: last
          ? [{ type: 'text' as const, text: 'done' }]
          : [
              {
                type: 'tool-call' as const,
                toolCallId: `call_${index}`,
                toolName: 'add',
                input: JSON.stringify({ a: index, b: 1 }),
              },
            ],
        finishReason: last
          ? { unified: 'stop' as const, raw: 'stop' }
          : { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage,
        warnings: [],
      });
    },
  });
}

/** The callbacks agentTraceTelemetry uses, doing nothing. */
const noop: Telemetry = {
  onStart: () => undefined,
  onLanguageModelCallStart: () => undefined,
  onLanguageModelCallEnd: () => undefined,
  onToolExecutionStart: () => undefined,
  executeTool: ({ execute }) => execute(),
  onToolExecutionEnd: () => undefined,
  onEnd: () => undefined,
};

/** µs a step, by way of recording. */
export interface BridgeOverheadResult {
  readonly steps: number;
  readonly off: number;
  /** An integration whose callbacks do nothing: what the AI SDK's own telemetry events cost. */
  readonly noop: number;
  readonly memory: number;
  readonly jsonl: number;
}

export async function measureBridgeOverhead(
  steps = 100,
  rounds = 5,
): Promise<BridgeOverheadResult> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-bench-bridge-'));
  let files = 0;
  const loop = (integrations?: Telemetry) =>
    generateText({
      model: mockModel(steps),
      tools: { add },
      stopWhen: isStepCount(steps),
      prompt: 'go',
      ...(integrations === undefined ? {} : { telemetry: { integrations: [integrations] } }),
    });
  const times = await interleaved(
    {
      off: () => loop(),
      noop: () => loop(noop),
      memory: async () => {
        const telemetry = agentTraceTelemetry({ trace: memorySink() });
        await loop(telemetry);
        await telemetry.flush();
      },
      jsonl: async () => {
        const sink = jsonlSink(join(folder, `${files++}.jsonl`));
        const telemetry = agentTraceTelemetry({ trace: sink });
        await loop(telemetry);
        await telemetry.flush();
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
export function formatBridgeOverhead(result: BridgeOverheadResult): string {
  return table([
    ['AI SDK generateText', 'µs a step', '/ off'],
    ['telemetry off', result.off.toFixed(1), '1.00×'],
    ['an integration that does nothing', result.noop.toFixed(1), ratio(result.noop / result.off)],
    ['agentTraceTelemetry → memory', result.memory.toFixed(1), ratio(result.memory / result.off)],
    ['agentTraceTelemetry → JSONL', result.jsonl.toFixed(1), ratio(result.jsonl / result.off)],
  ]);
}
