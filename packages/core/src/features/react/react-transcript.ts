import type { Message } from '../../kernel/protocol/message.js';
import { reactLabels, reactObservation } from './react-format.js';

/**
 * A conversation as an agent in ReAct mode shows it to its model: native tool calls (carried over
 * from history, or from an agent that handed off) become Action lines of the assistant's text,
 * and tool results become Observation messages, so a model without tool calling reads them.
 */
export function asReActMessages(messages: readonly Message[]): Message[] {
  return messages.map(message => {
    if (message.role === 'tool')
      return { role: 'user', content: reactObservation(message.content) };
    if (message.role === 'user' || message.toolCalls.length === 0) return message;
    const actions = message.toolCalls.map(
      call =>
        `${reactLabels.action} ${call.toolName}\n${reactLabels.actionInput} ${call.argumentsText}`,
    );
    return {
      role: 'assistant',
      content: [message.content, ...actions].filter(part => part !== '').join('\n'),
      toolCalls: [],
    };
  });
}
