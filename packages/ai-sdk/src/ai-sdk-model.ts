import type {
  LanguageModelV4,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { FinishReason, LanguageModel, ModelStreamPart, Usage } from '@agent-trace/core';
import { asApiCallError } from './api-call-error.js';
import { toModelRequest } from './to-model-request.js';

/** Options of {@link aiSdkModel}. */
export interface AiSdkModelOptions {
  /**
   * The agent name the model's requests carry (what a FakeLLM responder or a script's
   * `onUnexpectedCall` sees): the AI SDK does not say which agent calls. @defaultValue 'ai-sdk'
   */
  readonly agent?: string;
}

/** agent-trace's finish reasons as the AI SDK names them (the recorder reads them back). */
export const finishReasons: Readonly<Record<FinishReason, LanguageModelV4FinishReason['unified']>> =
  {
    stop: 'stop',
    tool_calls: 'tool-calls',
    length: 'length',
    content_filter: 'content-filter',
    other: 'other',
  };

/**
 * An agent-trace model as the Vercel AI SDK's language model (specification v4): give
 * `generateText`, `streamText` or an `Agent` a `fakeLLM` script, or a cassette-recorded model, and
 * the unchanged agent runs offline from it. Strictness is the script's own: a call past its last
 * step fails the run, and steps left over fail the test (with the testing package's Vitest setup).
 *
 * @example
 * ```ts
 * const model = aiSdkModel(fakeLLM([{ toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }, { text: 'Cold.' }]));
 * const { text } = await generateText({ model, tools: { weather }, stopWhen: isStepCount(5), prompt: 'Oslo?' });
 * ```
 */
export function aiSdkModel(model: LanguageModel, options: AiSdkModelOptions = {}): LanguageModelV4 {
  const agent = options.agent ?? 'ai-sdk';
  // What an error names as the endpoint: the model, as agent-trace knows it.
  const where = `agent-trace:${model.provider}/${model.modelId}`;
  return {
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: {},
    async doGenerate(callOptions) {
      const response = await model
        .generate(toModelRequest(callOptions, agent))
        .catch((error: unknown) => Promise.reject(asApiCallError(error, where)));
      const content: LanguageModelV4Content[] = [];
      if (response.text !== '') content.push({ type: 'text', text: response.text });
      for (const call of response.toolCalls)
        content.push({
          type: 'tool-call',
          toolCallId: call.callId,
          toolName: call.toolName,
          input: call.argumentsText,
        });
      return {
        content,
        finishReason: finishReasonOf(response.finishReason),
        usage: usageOf(response.usage),
        warnings: [],
      };
    },
    async doStream(callOptions) {
      const parts = model.stream(toModelRequest(callOptions, agent))[Symbol.asyncIterator]();
      // The first part is awaited here: a failed request fails the call, which the SDK retries,
      // rather than the stream it would hand on.
      const first = await parts.next().catch((error: unknown) => {
        throw asApiCallError(error, where);
      });
      return { stream: streamOf(first, parts) };
    },
  };
}

function finishReasonOf(reason: FinishReason): LanguageModelV4FinishReason {
  return { unified: finishReasons[reason], raw: reason };
}

function usageOf(usage: Usage): LanguageModelV4Usage {
  return {
    inputTokens: {
      total: usage.promptTokens,
      noCache: usage.promptTokens - (usage.cacheReadTokens ?? 0),
      cacheRead: usage.cacheReadTokens,
      cacheWrite: usage.cacheWriteTokens,
    },
    outputTokens: {
      total: usage.completionTokens,
      text: usage.completionTokens,
      reasoning: undefined,
    },
  };
}

/** agent-trace's stream parts as the AI SDK's: text and tool input as they come, then the finish. */
function streamOf(
  first: IteratorResult<ModelStreamPart>,
  iterator: AsyncIterator<ModelStreamPart>,
): ReadableStream<LanguageModelV4StreamPart> {
  let pending: IteratorResult<ModelStreamPart> | undefined = first;
  const calls = new Map<string, { toolName: string; input: string }>();
  let textOpen = false;
  let started = false;
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue({ type: 'stream-start', warnings: [] });
      }
      const next = pending ?? (await iterator.next());
      pending = undefined;
      if (next.done === true) return controller.close();
      const part = next.value;
      switch (part.type) {
        case 'text-delta':
          if (!textOpen) controller.enqueue({ type: 'text-start', id: 'text' });
          textOpen = true;
          return controller.enqueue({ type: 'text-delta', id: 'text', delta: part.text });
        case 'tool-call-start':
          calls.set(part.callId, { toolName: part.toolName, input: '' });
          return controller.enqueue({
            type: 'tool-input-start',
            id: part.callId,
            toolName: part.toolName,
          });
        case 'tool-call-delta': {
          const call = calls.get(part.callId);
          if (call !== undefined) call.input += part.argumentsDelta;
          return controller.enqueue({
            type: 'tool-input-delta',
            id: part.callId,
            delta: part.argumentsDelta,
          });
        }
        case 'tool-call-end': {
          const call = calls.get(part.callId);
          controller.enqueue({ type: 'tool-input-end', id: part.callId });
          return controller.enqueue({
            type: 'tool-call',
            toolCallId: part.callId,
            toolName: call?.toolName ?? '',
            input: call?.input ?? '',
          });
        }
        case 'finish':
          if (textOpen) controller.enqueue({ type: 'text-end', id: 'text' });
          textOpen = false;
          return controller.enqueue({
            type: 'finish',
            finishReason: finishReasonOf(part.finishReason),
            usage: usageOf(part.usage),
          });
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
