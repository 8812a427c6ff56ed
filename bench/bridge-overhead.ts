/**
 * What recording costs an AI SDK agent: the same `generateText` loop over N steps (a tool call a
 * step, the AI SDK's own mock model) with its telemetry off, with an integration that does
 * nothing (what the AI SDK's own telemetry events cost), and with agent-trace's integration
 * writing to memory and to a JSONL file. Interleaved rounds; µs a step and the ratio
 * to telemetry off.
 */
import { agentTraceTelemetry } from '@agent-trace/ai-sdk';
import { generateText, isStepCount, type Telemetry } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { measureRecording, recordingTable, type RecordingOverhead } from './recording-overhead.js';
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
export type BridgeOverheadResult = RecordingOverhead;

export async function measureBridgeOverhead(
  steps = 100,
  rounds = 5,
): Promise<BridgeOverheadResult> {
  const loop = (integrations?: Telemetry) =>
    generateText({
      model: mockModel(steps),
      tools: { add },
      stopWhen: isStepCount(steps),
      prompt: 'go',
      ...(integrations === undefined ? {} : { telemetry: { integrations: [integrations] } }),
    });
  return measureRecording(steps, rounds, {
    off: () => loop(),
    noop: () => loop(noop),
    record: async trace => {
      const telemetry = agentTraceTelemetry({ trace });
      await loop(telemetry);
      await telemetry.flush();
    },
  });
}

/** The benchmark's table. */
export function formatBridgeOverhead(result: BridgeOverheadResult): string {
  return recordingTable(
    {
      run: 'AI SDK generateText',
      off: 'telemetry off',
      noop: 'an integration that does nothing',
      recorder: 'agentTraceTelemetry',
    },
    result,
  );
}
