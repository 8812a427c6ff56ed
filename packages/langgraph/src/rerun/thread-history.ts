import type { Message } from '@agent-trace/core';
import { fromTraceMessage } from '@agent-trace/core/record';
import type { Recording } from '@agent-trace/trace';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';

/**
 * The messages a recorded run's thread held before its input (what a checkpointer gave its graph,
 * a conversation's earlier turns): those its first model call was sent before its last user
 * message. Empty for a run that started afresh. A rerun gives them to the graph again, so a
 * thread's later turn reruns alone.
 */
export function threadHistory(recording: Recording): BaseMessage[] {
  const first = recording.events.find(event => event.event === 'llm_start');
  if (first?.event !== 'llm_start') return [];
  const messages = first.messages.map(fromTraceMessage);
  const asked = messages.findLastIndex(message => message.role === 'user');
  return messages.slice(0, Math.max(0, asked)).map(toLangchain);
}

/** A conversation's message as LangChain's. */
function toLangchain(message: Message): BaseMessage {
  switch (message.role) {
    case 'user':
      return new HumanMessage(message.content);
    case 'assistant':
      return new AIMessage({
        content: message.content,
        tool_calls: message.toolCalls.map(call => ({
          id: call.callId,
          name: call.toolName,
          args: argumentsOf(call.argumentsText),
          type: 'tool_call' as const,
        })),
      });
    case 'tool':
      return new ToolMessage({
        content: message.content,
        tool_call_id: message.callId,
        name: message.toolName,
        ...(message.isError ? { status: 'error' as const } : {}),
      });
  }
}

/** A call's arguments as the object LangChain holds (text the model sent that is not JSON, as is). */
function argumentsOf(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { input: parsed };
  } catch {
    return { input: text };
  }
}
