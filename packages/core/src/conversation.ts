/**
 * `@agent-trace/core/conversation`: conversations with an agent, one run a turn, each turn
 * recorded with the conversation's id, its index and the messages it started from, so that a
 * conversation reruns turn by turn and goes on in another process from its trace.
 */
export { carriedCount, conversation } from './runner/conversation.js';
export type { Conversation, ConversationOptions } from './runner/conversation.js';
