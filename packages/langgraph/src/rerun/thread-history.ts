import { fromTraceMessage } from '@agent-trace/core/record';
import type { Recording } from '@agent-trace/trace';
import type { BaseMessage } from '@langchain/core/messages';
import { langchainMessagesOf } from '../messages.js';

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
  return langchainMessagesOf(messages.slice(0, Math.max(0, asked)));
}
