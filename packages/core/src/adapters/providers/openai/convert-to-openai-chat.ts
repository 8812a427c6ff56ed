import type OpenAI from 'openai';
import type { ToolDefinition } from '../../../kernel/model/language-model.js';
import type { Message } from '../../../kernel/protocol/message.js';

type ChatParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.Completions.ChatCompletionTool;

/** Appends one message in the Chat Completions format. */
export function appendChatMessage(params: ChatParam[], message: Message): void {
  switch (message.role) {
    case 'user':
      params.push({ role: 'user', content: message.content });
      return;
    case 'assistant':
      params.push({
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        ...(message.toolCalls.length === 0
          ? {}
          : {
              tool_calls: message.toolCalls.map(call => ({
                id: call.callId,
                type: 'function' as const,
                function: { name: call.toolName, arguments: call.argumentsText },
              })),
            }),
      });
      return;
    case 'tool':
      params.push({ role: 'tool', tool_call_id: message.callId, content: message.content });
      return;
  }
}

const toolCache = new WeakMap<readonly ToolDefinition[], ChatTool[]>();

/** The tool definitions in the Chat Completions format, converted once per set. */
export function toChatTools(tools: readonly ToolDefinition[]): ChatTool[] {
  let converted = toolCache.get(tools);
  if (converted === undefined) {
    converted = tools.map(tool => ({
      type: 'function' as const,
      function: {
        name: tool.name,
        description: tool.description,
        parameters: { ...tool.inputSchema },
      },
    }));
    toolCache.set(tools, converted);
  }
  return converted;
}
