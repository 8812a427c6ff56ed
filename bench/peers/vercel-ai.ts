/**
 * The Vercel AI SDK under the shared scenario: `generateText` with a step limit on its mock
 * model; with `otel`, its OpenTelemetry integration (`@ai-sdk/otel`) records every span through
 * the same kind of application SDK agent-trace's `otelSink` is measured with; with `otlp`, that
 * SDK sends them over OTLP/gRPC to a collector on 127.0.0.1, as agent-trace's `otlpSink` does.
 */
import { OpenTelemetry } from '@ai-sdk/otel';
import { generateText, isStepCount, tool, type Tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { addArguments } from '../scenario.js';
import { startOtlpReceiver } from '@agent-trace/testing/otlp';
import type { TracerProvider } from '@opentelemetry/sdk-trace';
import { appTracerProvider } from './app-sdk.js';
import { expectDone, type Subject } from './subject.js';

/** The shared scenario's tool, as an AI SDK tool. */
export const add: Tool<{ a: number; b: number }, number> = tool({
  description: 'Add two numbers',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => Promise.resolve(a + b),
});

/** What the mock model reports a call used. */
export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** The AI SDK with its OpenTelemetry integration, the SDK exporting over OTLP/gRPC to a local collector. */
export async function vercelAiOtlp(): Promise<Subject> {
  const receiver = await startOtlpReceiver();
  const subject = vercelAi('otlp', appTracerProvider(receiver.url));
  return {
    ...subject,
    close: async () => {
      // The SDK's shutdown sends what is queued all at once, past the OTLP exporter's limit of
      // requests in flight, and rejects: what it loses is not part of the measurement.
      await subject.close?.().catch(() => undefined);
      await receiver.close();
    },
  };
}

const names = {
  off: 'Vercel AI SDK',
  otel: 'Vercel AI SDK + OpenTelemetry SDK',
  otlp: 'Vercel AI SDK + OpenTelemetry SDK + OTLP',
};

/** The AI SDK's `generateText` loop, with its telemetry off or through an OpenTelemetry SDK. */
export function vercelAi(
  mode: 'off' | 'otel' | 'otlp' = 'off',
  tracerProvider: TracerProvider | undefined = mode === 'otel' ? appTracerProvider() : undefined,
): Subject {
  const telemetry =
    tracerProvider === undefined
      ? undefined
      : { integrations: [new OpenTelemetry({ tracer: tracerProvider.getTracer('ai') })] };
  return {
    name: names[mode],
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
          return result;
        },
        finish: () => Promise.resolve(),
      });
    },
    ...(tracerProvider === undefined ? {} : { close: () => tracerProvider.shutdown() }),
  };
}
