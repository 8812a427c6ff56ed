import type OpenAI from 'openai';
import type { ToolDefinition } from '../../../kernel/model/language-model.js';
import type { Message } from '../../../kernel/protocol/message.js';
import { reasoningInputItems } from './read-responses-output.js';

type InputItem = OpenAI.Responses.ResponseInputItem;
type FunctionTool = OpenAI.Responses.FunctionTool;

/** Appends one message as Responses API input items (a tool call is an item of its own). */
export function appendResponsesItems(items: InputItem[], message: Message): void {
  switch (message.role) {
    case 'user':
      items.push({ role: 'user', content: message.content });
      return;
    case 'assistant':
      items.push(...reasoningInputItems(message.reasoning));
      if (message.content !== '') items.push({ role: 'assistant', content: message.content });
      for (const call of message.toolCalls) {
        items.push({
          type: 'function_call',
          call_id: call.callId,
          name: call.toolName,
          arguments: call.argumentsText,
        });
      }
      return;
    case 'tool':
      items.push({
        type: 'function_call_output',
        call_id: message.callId,
        output: message.content,
      });
      return;
  }
}

const toolCache = new WeakMap<readonly ToolDefinition[], FunctionTool[]>();

/** The tool definitions as Responses API function tools, converted once per set. */
export function toResponsesTools(tools: readonly ToolDefinition[]): FunctionTool[] {
  let converted = toolCache.get(tools);
  if (converted === undefined) {
    converted = tools.map(tool => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description,
      parameters: { ...tool.inputSchema },
      strict: false,
    }));
    toolCache.set(tools, converted);
  }
  return converted;
}
