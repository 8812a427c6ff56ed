import type { ReasoningPart } from './reasoning.js';

/** A tool call the LLM asked for, as it stands in the conversation history. */
export interface ToolCallRequest {
  /** The id the provider gave the call (or a generated one); tool results refer to it. */
  readonly callId: string;
  /** The tool's name as the LLM wrote it (it may name a tool that does not exist). */
  readonly toolName: string;
  /** The arguments exactly as the LLM produced them: a JSON text that may be malformed. */
  readonly argumentsText: string;
}

/** A user turn. */
export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
}

/** An assistant turn: text and/or tool calls. */
export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string;
  readonly toolCalls: readonly ToolCallRequest[];
  /** What the model thought before this answer, sent back as its provider requires. */
  readonly reasoning?: readonly ReasoningPart[];
}

/** The result of one tool call, sent back to the LLM. */
export interface ToolResultMessage {
  readonly role: 'tool';
  readonly callId: string;
  readonly toolName: string;
  /** What the LLM sees: the tool's result as text, or the error message. */
  readonly content: string;
  /** True when `content` describes a failure (unknown tool, invalid arguments, a throw). */
  readonly isError: boolean;
}

/** One entry of the provider-neutral conversation history. System instructions are kept apart. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * Adds a tool call to a conversation read from items that list a turn's calls after its message
 * (the Responses API, the OpenAI Agents SDK): it joins the assistant message just before it, or
 * starts one with no text.
 */
export function appendToolCall(messages: Message[], call: ToolCallRequest): void {
  const last = messages.at(-1);
  if (last?.role === 'assistant')
    messages[messages.length - 1] = { ...last, toolCalls: [...last.toolCalls, call] };
  else messages.push({ role: 'assistant', content: '', toolCalls: [call] });
}

/**
 * A message's JSON as a request's hash takes it: without what the model thought. Reasoning is
 * the outside world's (the model's) and provider-private, carried back, not decided by the code:
 * another thought to the same answer is the same request, and a rerun, which replays it, is too.
 */
export function hashedMessageJson(message: Message): string {
  return message.role === 'assistant' && message.reasoning !== undefined
    ? JSON.stringify({ role: message.role, content: message.content, toolCalls: message.toolCalls })
    : JSON.stringify(message);
}

/** Messages' JSON as a request's hash takes it (see {@link hashedMessageJson}). */
export function hashedMessagesJson(messages: readonly Message[]): string {
  return messages.some(message => message.role === 'assistant' && message.reasoning !== undefined)
    ? `[${messages.map(hashedMessageJson).join(',')}]`
    : JSON.stringify(messages);
}
