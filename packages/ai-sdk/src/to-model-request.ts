import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { ModelRequest, ToolDefinition } from '@agent-trace/core';
import { defined } from '@agent-trace/core/util';
import { fromPrompt } from './prompt-messages.js';

/**
 * The AI SDK's call, as agent-trace's model request: system messages become the instructions,
 * the conversation its messages (text, tool calls and tool results), function tools its tool
 * definitions, a JSON response format its structured output. Reasoning parts are not carried
 * (agent-trace's messages have no place for them); a file part is named, not carried.
 */
export function toModelRequest(
  options: LanguageModelV4CallOptions,
  agentName: string,
): ModelRequest {
  const { instructions, messages } = fromPrompt(options.prompt);
  const tools: ToolDefinition[] = (options.tools ?? []).flatMap(tool =>
    tool.type === 'function'
      ? [
          {
            name: tool.name,
            description: tool.description ?? '',
            inputSchema: tool.inputSchema as Readonly<Record<string, unknown>>,
          },
        ]
      : [],
  );
  const format = options.responseFormat;
  return {
    instructions,
    messages,
    tools,
    agentName,
    ...defined('abortSignal', options.abortSignal),
    ...defined('stopSequences', options.stopSequences),
    ...(format?.type === 'json' && format.schema !== undefined
      ? {
          responseFormat: {
            name: format.name ?? 'output',
            schema: format.schema as Readonly<Record<string, unknown>>,
          },
        }
      : {}),
  };
}
