import type { Message, ModelRequest, ToolDefinition } from '@agent-trace/core';
import { appendToolCall } from '@agent-trace/core/record';
import { defined } from '@agent-trace/core/util';
import type { ModelRequest as AgentsModelRequest } from '@openai/agents';

/** An input item as the SDK gives it, read by its fields: the kinds carried, the others ignored. */
interface InputItem {
  readonly type?: string;
  readonly role?: string;
  readonly content?: unknown;
  readonly callId?: string;
  readonly name?: string;
  readonly arguments?: string;
  readonly output?: unknown;
}

/**
 * The Agents SDK's model request as agent-trace's: the system instructions, the conversation
 * (user and assistant messages, function calls and their results), the function tools and the
 * handoffs (as the tools the model sees them as), and a JSON output type as structured output.
 * Reasoning items and hosted, computer and shell tools are not carried.
 */
export function toModelRequest(request: AgentsModelRequest, agentName: string): ModelRequest {
  const { system, messages } = conversationOf(request.input);
  if (request.systemInstructions !== undefined) system.unshift(request.systemInstructions);
  const tools: ToolDefinition[] = [
    ...request.tools.flatMap(tool =>
      tool.type === 'function'
        ? [
            {
              name: tool.name,
              description: tool.description,
              inputSchema: tool.parameters as Readonly<Record<string, unknown>>,
            },
          ]
        : [],
    ),
    ...request.handoffs.map(handoff => ({
      name: handoff.toolName,
      description: handoff.toolDescription,
      inputSchema: handoff.inputJsonSchema as Readonly<Record<string, unknown>>,
    })),
  ];
  const output = request.outputType;
  return {
    instructions: system.join('\n\n'),
    messages,
    tools,
    agentName,
    ...defined('abortSignal', request.signal),
    ...(output === 'text'
      ? {}
      : {
          responseFormat: {
            name: output.name,
            schema: output.schema,
          },
        }),
  };
}

/**
 * The SDK's input items as agent-trace's conversation: system messages apart, user and assistant
 * messages, function calls (joined to their assistant turn) and their results. Other items
 * (reasoning, hosted tools) are not carried.
 */
export function conversationOf(input: string | readonly unknown[]): {
  system: string[];
  messages: Message[];
} {
  const system: string[] = [];
  const messages: Message[] = [];
  const items: readonly InputItem[] =
    typeof input === 'string'
      ? [{ role: 'user', content: input }]
      : (input as readonly InputItem[]);
  for (const item of items) {
    if (item.role === 'system') system.push(textOf(item.content));
    else if (item.role === 'user') messages.push({ role: 'user', content: textOf(item.content) });
    else if (item.role === 'assistant')
      messages.push({ role: 'assistant', content: textOf(item.content), toolCalls: [] });
    else if (item.type === 'function_call') {
      // The SDK lists a turn's calls as items after its message: they join that message.
      appendToolCall(messages, {
        callId: item.callId ?? '',
        toolName: item.name ?? '',
        argumentsText: item.arguments ?? '',
      });
    } else if (item.type === 'function_call_result')
      messages.push({
        role: 'tool',
        callId: item.callId ?? '',
        toolName: item.name ?? '',
        content: outputText(item.output),
        isError: false,
      });
  }
  return { system, messages };
}

/** The text of a message's content: a string, or its text parts joined. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map(part => {
      const { text } = part as { text?: unknown };
      return typeof text === 'string' ? text : '';
    })
    .join('');
}

/** A function's result as the text the model is shown. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  const { type, text } = (output ?? {}) as { type?: unknown; text?: unknown };
  if (type === 'text' && typeof text === 'string') return text;
  return JSON.stringify(output);
}
