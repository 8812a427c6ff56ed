import type { Message, ToolCallRequest, ToolDefinition } from '@agent-trace/core';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';

/** A LangChain message read by its fields: the kinds carried, the others ignored. */
interface MessageFields {
  readonly type?: string;
  readonly content?: unknown;
  readonly tool_calls?: ReadonlyArray<{ id?: string; name: string; args: unknown }>;
  readonly tool_call_id?: string;
  readonly name?: string;
  readonly status?: string;
}

/**
 * LangChain messages as agent-trace's conversation: system messages as the instructions, human,
 * AI (with their tool calls) and tool messages, from the message `from` on. Other kinds
 * (function, remove) are not carried.
 */
export function conversationOf(
  prompt: readonly BaseMessage[],
  from = 0,
): {
  instructions: string;
  messages: Message[];
} {
  const system: string[] = [];
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  const fields = prompt as readonly MessageFields[];
  // The instructions are every system message; only the messages from `from` on are converted.
  for (let index = 0; index < from; index++)
    if (fields[index]?.type === 'system') system.push(textOf(fields[index]?.content));
  for (const message of fields.slice(from)) {
    const content = textOf(message.content);
    if (message.type === 'system') system.push(content);
    else if (message.type === 'human') messages.push({ role: 'user', content });
    else if (message.type === 'ai') {
      const toolCalls = (message.tool_calls ?? []).map((call, index) => {
        const callId = call.id ?? `call_${messages.length}_${index}`;
        toolNames.set(callId, call.name);
        return { callId, toolName: call.name, argumentsText: JSON.stringify(call.args ?? {}) };
      });
      messages.push({ role: 'assistant', content, toolCalls });
    } else if (message.type === 'tool') {
      const callId = message.tool_call_id ?? '';
      messages.push({
        role: 'tool',
        callId,
        toolName: message.name ?? toolNames.get(callId) ?? '',
        content,
        isError: message.status === 'error',
      });
    }
  }
  return { instructions: system.join('\n\n'), messages };
}

/** OpenAI-format function tools (what `bindTools` gives a model) as agent-trace's definitions. */
export function toolDefinitionsOf(tools: unknown): ToolDefinition[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown) => {
    const fn = (tool as { type?: string; function?: Record<string, unknown> }).function;
    if (fn === undefined) return [];
    return [
      {
        name: String(fn.name),
        description: typeof fn.description === 'string' ? fn.description : '',
        inputSchema: (fn.parameters ?? {}) as Readonly<Record<string, unknown>>,
      },
    ];
  });
}

/** The text of a message's content: a string, or its text parts joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content
    .map(part => {
      const { type, text } = part as { type?: unknown; text?: unknown };
      return type === 'text' && typeof text === 'string' ? text : '';
    })
    .join('');
}

/** Tool calls as an AI message carries them. */
export function langchainToolCalls(calls: readonly ToolCallRequest[]): {
  id: string;
  name: string;
  args: Record<string, unknown>;
  type: 'tool_call';
}[] {
  return calls.map(call => ({
    id: call.callId,
    name: call.toolName,
    args: argsOf(call.argumentsText),
    type: 'tool_call' as const,
  }));
}

/** Agent-trace's conversation as LangChain messages: the way back of {@link conversationOf}. */
export function langchainMessagesOf(messages: readonly Message[]): BaseMessage[] {
  return messages.map(message => {
    switch (message.role) {
      case 'user':
        return new HumanMessage(message.content);
      case 'assistant':
        return new AIMessage({
          content: message.content,
          tool_calls: langchainToolCalls(message.toolCalls),
        });
      case 'tool':
        return new ToolMessage({
          content: message.content,
          tool_call_id: message.callId,
          name: message.toolName,
          ...(message.isError ? { status: 'error' as const } : {}),
        });
    }
  });
}

/** A tool call's arguments text as the object LangChain carries (`{}` for text that is not one). */
function argsOf(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
