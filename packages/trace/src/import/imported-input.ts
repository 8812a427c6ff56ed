import type { Message } from '@agent-trace/core';

/**
 * The messages a model call's input adds to its agent's conversation. A call that repeats the
 * whole conversation adds what follows it. One that holds only part of it (a memory window: the
 * agent's input and the newest messages) adds what follows the last message the conversation
 * holds. One that holds none of it (a framework that sends only the new messages) adds all it
 * sent.
 */
export function newMessages(
  conversation: readonly Message[],
  sent: readonly Message[],
): readonly Message[] {
  const held = conversation.map(message => JSON.stringify(message));
  const keys = sent.map(message => JSON.stringify(message));
  if (held.length <= keys.length && held.every((key, index) => keys[index] === key))
    return sent.slice(held.length);
  const known = new Set(held);
  return sent.slice(keys.findLastIndex(key => known.has(key)) + 1);
}
