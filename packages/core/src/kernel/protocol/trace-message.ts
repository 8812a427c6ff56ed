import type { Message } from './message.js';
import type { TraceMessage } from './trace-event.js';

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
