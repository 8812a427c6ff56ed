/**
 * Text that may hold JSON (a tool's arguments or result, as another framework keeps it) as its
 * value: the parsed JSON, or the text itself when it is not JSON.
 */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
