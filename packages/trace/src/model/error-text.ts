/**
 * An error as a line says it, in `replay` and the viewer alike: its type, then its message, unless
 * the message says the type again (an imported span's `error: …` whose type is `error`); an empty
 * message is said to be empty.
 */
export function errorText(error: { readonly type: string; readonly message: string }): string {
  const message = error.message.trim();
  if (message === '') return `${error.type} (no message)`;
  const repeats = message.toLowerCase().startsWith(`${error.type.toLowerCase()}:`);
  return repeats ? message : `${error.type}: ${message}`;
}
