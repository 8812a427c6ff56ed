/** What an error of the trace carries: its type, its message, and a feature's refusal. */
interface TracedError {
  readonly type: string;
  readonly message: string;
  readonly feature?: string | undefined;
  readonly refusal?: string | undefined;
}

/**
 * An error's kind as lines say it: its type, and for a call a feature refused, the feature and
 * its own kind of refusal (`refused by feature 'tool-quota' (quota_exceeded)`).
 */
export function errorKind(error: Omit<TracedError, 'message'>): string {
  return error.feature === undefined
    ? error.type
    : `${error.type} by feature '${error.feature}' (${error.refusal ?? 'no kind given'})`;
}

/**
 * An error as a line says it, in `replay` and the viewer alike: its kind, then its message, unless
 * the message says the type again (an imported span's `error: …` whose type is `error`); an empty
 * message is said to be empty.
 */
export function errorText(error: TracedError): string {
  const kind = errorKind(error);
  const message = error.message.trim();
  if (message === '') return `${kind} (no message)`;
  const repeats = message.toLowerCase().startsWith(`${error.type.toLowerCase()}:`);
  return repeats && error.feature === undefined ? message : `${kind}: ${message}`;
}
