import type { LanguageModel, ModelResponse as TraceModelResponse } from '@agent-trace/core';
import { importPeer } from '@agent-trace/core/util';
import type * as AgentsSdk from '@openai/agents';
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents';
import { toModelRequest } from './to-model-request.js';
import { wireResponse } from './wire-response.js';

let loaded: Promise<typeof AgentsSdk> | undefined;

/** The Agents SDK, an optional peer, loaded at the first call: a model response holds its `Usage`. */
export function sdk(): Promise<typeof AgentsSdk> {
  loaded ??= importPeer(() => import('@openai/agents'), {
    peer: '@openai/agents',
    needer: '@agent-trace/openai-agents',
    range: '>=0.20.0 <0.21.0',
    runtime: true,
  });
  return loaded;
}

/** Options of {@link openaiAgentsModel}. */
export interface OpenaiAgentsModelOptions {
  /**
   * The agent name the model's requests carry (what a FakeLLM responder or its messages show):
   * the SDK's model requests do not say which agent calls. @defaultValue 'openai-agents'
   */
  readonly agent?: string;
}

/**
 * An agent-trace model as the OpenAI Agents SDK's `Model`: give an `Agent` a `fakeLLM` script, or
 * a cassette-recorded model, and the unchanged agent (its tools, handoffs and agents used as
 * tools) runs offline from it. Strictness is the script's own: a call past its last step fails
 * the run, and steps left over fail the test (with the testing package's Vitest setup).
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: 'weather', tools: [weather], model: openaiAgentsModel(fakeLLM([...]), { agent: 'weather' }) });
 * ```
 */
export function openaiAgentsModel(
  model: LanguageModel,
  options: OpenaiAgentsModelOptions = {},
): Model {
  const agent = options.agent ?? 'openai-agents';
  let responses = 0;
  /** Asks the model, inside a response span when the run is traced (as the SDK's own model does). */
  const answer = async (
    request: ModelRequest,
  ): Promise<{ answer: TraceModelResponse; response: ModelResponse }> => {
    const peer = await sdk();
    const index = ++responses;
    const asked = toModelRequest(request, agent);
    const ask = async (): Promise<{ answer: TraceModelResponse; response: ModelResponse }> => {
      const got = await model.generate(asked);
      return { answer: got, response: responseOf(peer.Usage, got, index) };
    };
    if (request.tracing === false || request.tracing === undefined) return ask();
    return peer.withResponseSpan(async span => {
      const got = await ask();
      span.spanData.response_id = got.response.responseId;
      if (request.tracing === true) {
        span.spanData._input = request.input as Record<string, unknown>[] | string;
        span.spanData._response = wireResponse(
          asked,
          got.answer,
          model,
          got.response.responseId ?? '',
        );
      }
      return got;
    });
  };
  return {
    async getResponse(request) {
      return (await answer(request)).response;
    },
    async *getStreamedResponse(request) {
      // The answer is streamed as the SDK's own scripted model streams one: started, the text, done.
      const { answer: got, response } = await answer(request);
      yield { type: 'response_started' };
      if (got.text !== '') yield { type: 'output_text_delta', delta: got.text };
      yield {
        type: 'response_done',
        response: {
          id: response.responseId,
          usage: {
            requests: 1,
            inputTokens: response.usage.inputTokens,
            outputTokens: response.usage.outputTokens,
            totalTokens: response.usage.totalTokens,
          },
          output: response.output,
        },
      } as StreamEvent;
    },
  };
}

/** An agent-trace answer as the SDK's response: an assistant message, then the function calls. */
function responseOf(
  Usage: typeof AgentsSdk.Usage,
  answer: TraceModelResponse,
  index: number,
): ModelResponse {
  const { promptTokens, completionTokens } = answer.usage;
  return {
    usage: new Usage({
      requests: 1,
      inputTokens: promptTokens,
      outputTokens: completionTokens,
      totalTokens: promptTokens + completionTokens,
    }),
    output: [
      ...(answer.text === ''
        ? []
        : [
            {
              type: 'message' as const,
              role: 'assistant' as const,
              status: 'completed' as const,
              content: [{ type: 'output_text' as const, text: answer.text }],
            },
          ]),
      ...answer.toolCalls.map(call => ({
        type: 'function_call' as const,
        id: call.callId,
        callId: call.callId,
        name: call.toolName,
        arguments: call.argumentsText,
        status: 'completed' as const,
      })),
    ],
    responseId: `agent-trace-${index}`,
  };
}
