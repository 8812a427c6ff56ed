import type { Message } from '@agent-trace/core';

/** What a model call's input adds to its agent's conversation, and the window it was, if one. */
export interface ImportedInput {
  /** The messages new to the conversation. */
  readonly fresh: readonly Message[];
  /** Set when the call sent only part of the conversation (a memory window). */
  readonly window?: readonly Message[];
}

/**
 * Reads a model call's input against what its agent's conversation holds so far. The new
 * messages follow the conversation's last one: a call that repeats the whole conversation adds
 * what follows it; one that holds only part of it (a memory window kept the first input and the
 * newest messages) adds what follows its last message too, and is a window; one that holds none
 * of it (a framework that sends only the new messages) adds all it sent.
 */
export function importedInput(
  conversation: readonly Message[],
  sent: readonly Message[],
): ImportedInput {
  const last = conversation.at(-1);
  if (last === undefined) return { fresh: sent };
  const lastKey = JSON.stringify(last);
  const keys = sent.map(message => JSON.stringify(message));
  const end = keys.findIndex((key, index) => index < conversation.length && key === lastKey);
  if (end < 0) return { fresh: sent };
  const fresh = sent.slice(end + 1);
  const whole =
    end + 1 === conversation.length &&
    conversation.every((message, index) => JSON.stringify(message) === keys[index]);
  return whole ? { fresh } : { fresh, window: sent };
}
