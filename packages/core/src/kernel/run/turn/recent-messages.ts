import type { Message } from '../../protocol/message.js';

/**
 * The last `count` messages, or fewer: a window never starts on a tool result, so a tool call and
 * its results are never split (results whose call fell out of the window are left out too).
 */
export function recentMessages(messages: readonly Message[], count: number): readonly Message[] {
  let start = Math.max(0, messages.length - count);
  while (start < messages.length && messages[start]?.role === 'tool') start++;
  return start === 0 ? messages : messages.slice(start);
}

/**
 * What the model sees with a memory window: the last `window` messages (pairs kept whole), and
 * the run's own input message even when it is older than the window.
 */
export function windowedMessages(
  messages: readonly Message[],
  window: number,
  inputIndex: number,
): readonly Message[] {
  const recent = recentMessages(messages, window);
  const firstShown = messages.length - recent.length;
  const input = messages[inputIndex];
  if (inputIndex >= firstShown || input === undefined) return recent;
  return [input, ...recent];
}
