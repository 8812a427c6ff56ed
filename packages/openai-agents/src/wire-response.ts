import type { LanguageModel, ModelRequest, ModelResponse } from '@agent-trace/core';

/**
 * An agent-trace answer as the Responses API's response object, which the SDK's own OpenAI model
 * keeps on its response span (`_response`) for tracing processors: the same shape, so a recorder
 * reads a scripted run and a real one alike. `provider` is agent-trace's addition: the model's
 * provider, which a Responses object does not name.
 */
export function wireResponse(
  request: ModelRequest,
  answer: ModelResponse,
  model: Pick<LanguageModel, 'provider' | 'modelId'>,
  id: string,
): Record<string, unknown> {
  const { promptTokens, completionTokens, cacheReadTokens } = answer.usage;
  const incomplete =
    answer.finishReason === 'length'
      ? 'max_output_tokens'
      : answer.finishReason === 'content_filter'
        ? 'content_filter'
        : undefined;
  return {
    id,
    object: 'response',
    model: model.modelId,
    provider: model.provider,
    status: incomplete === undefined ? 'completed' : 'incomplete',
    ...(incomplete === undefined ? {} : { incomplete_details: { reason: incomplete } }),
    instructions: request.instructions,
    tools: request.tools.map(tool => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
    })),
    output: [
      ...(answer.text === ''
        ? []
        : [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: answer.text }],
            },
          ]),
      ...answer.toolCalls.map(call => ({
        type: 'function_call',
        call_id: call.callId,
        name: call.toolName,
        arguments: call.argumentsText,
        status: 'completed',
      })),
    ],
    usage: {
      input_tokens: promptTokens,
      output_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      input_tokens_details: { cached_tokens: cacheReadTokens ?? 0 },
    },
  };
}
