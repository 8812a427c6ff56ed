import type { Message } from './message.js';
import type { TraceMessage } from './trace-event.js';
import { fromTraceReasoning, toTraceReasoning } from './reasoning.js';

/** A message in the trace's snake_case vocabulary. */
export function toTraceMessage(message: Message): TraceMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: message.toolCalls.map(call => ({
          call_id: call.callId,
          tool: call.toolName,
          arguments: call.argumentsText,
        })),
        ...(message.reasoning === undefined || message.reasoning.length === 0
          ? {}
          : { reasoning: toTraceReasoning(message.reasoning) }),
      };
    case 'tool':
      return {
        role: 'tool',
        call_id: message.callId,
        tool: message.toolName,
        content: message.content,
        is_error: message.isError,
      };
  }
}

/** A message of the trace back in the conversation's vocabulary: {@link toTraceMessage}'s inverse. */
export function fromTraceMessage(message: TraceMessage): Message {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        toolCalls: message.tool_calls.map(call => ({
          callId: call.call_id,
          toolName: call.tool,
          argumentsText: call.arguments,
        })),
        ...(message.reasoning === undefined
          ? {}
          : { reasoning: fromTraceReasoning(message.reasoning) }),
      };
    case 'tool':
      return {
        role: 'tool',
        callId: message.call_id,
        toolName: message.tool,
        content: message.content,
        isError: message.is_error,
      };
  }
}

/**
 * An agent's conversation as a reader of its trace holds it, followed through one `llm_start`:
 * its messages appended to `conversation` (which is returned), or, when a feature rewrote earlier
 * messages (`kept`), the `kept` first messages and then its messages, in a new array. The entry
 * agent's first request of a run with a history (`from_history`) starts from that many messages of
 * `history`, the run's whole history (`RunHistories`); without it, from what the trace holds.
 */
export function followConversation(
  conversation: TraceMessage[],
  start: {
    readonly messages: readonly TraceMessage[];
    readonly kept?: number | undefined;
    readonly from_history?: number | undefined;
  },
  history?: readonly TraceMessage[],
): TraceMessage[] {
  if (start.from_history !== undefined)
    conversation = [...(history ?? []).slice(0, start.from_history), ...conversation];
  if (start.kept !== undefined) return [...conversation.slice(0, start.kept), ...start.messages];
  for (const message of start.messages) conversation.push(message);
  return conversation;
}
