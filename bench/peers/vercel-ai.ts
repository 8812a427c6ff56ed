/**
 * The Vercel AI SDK under the shared scenario: `generateText` with a step limit on its mock
 * model; with `otel`, its OpenTelemetry integration (`@ai-sdk/otel`) records every span through
 * the same kind of application SDK agent-trace's `otelSink` is measured with.
 */
import { OpenTelemetry } from '@ai-sdk/otel';
import { generateText, isStepCount, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { addArguments } from '../scenario.js';
import { appTracerProvider } from './app-sdk.js';
import { expectDone, type Subject } from './subject.js';

const add = tool({
  description: 'Add two numbers',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => Promise.resolve(a + b),
});

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** The AI SDK's `generateText` loop, with its telemetry off or through an OpenTelemetry SDK. */
export function vercelAi(mode: 'off' | 'otel' = 'off'): Subject {
  const tracerProvider = mode === 'otel' ? appTracerProvider() : undefined;
  const telemetry =
    tracerProvider === undefined
      ? undefined
      : { integrations: [new OpenTelemetry({ tracer: tracerProvider.getTracer('ai') })] };
  return {
    name: mode === 'otel' ? 'Vercel AI SDK + OpenTelemetry SDK' : 'Vercel AI SDK',
    kind: 'peer',
    prepare(steps) {
      let call = 0;
      const model = new MockLanguageModelV4({
        doGenerate: () => {
          const index = call++;
          return Promise.resolve(
            index < steps - 1
              ? {
                  content: [
                    {
                      type: 'tool-call' as const,
                      toolCallId: `call_${index}`,
                      toolName: 'add',
                      input: JSON.stringify(addArguments(index)),
                    },
                  ],
                  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
                  usage,
                  warnings: [],
                }
              : {
                  content: [{ type: 'text' as const, text: 'done' }],
                  finishReason: { unified: 'stop' as const, raw: 'stop' },
                  usage,
                  warnings: [],
                },
          );
        },
      });
      return Promise.resolve({
        async run() {
          const result = await generateText({
            model,
            prompt: 'go',
            tools: { add },
            stopWhen: isStepCount(steps),
            ...(telemetry === undefined ? {} : { telemetry }),
          });
          expectDone('The Vercel AI SDK', result.text);
        },
        finish: () => Promise.resolve(),
      });
    },
    ...(tracerProvider === undefined ? {} : { close: () => tracerProvider.shutdown() }),
  };
}
