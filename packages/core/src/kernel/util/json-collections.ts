/**
 * A `JSON.stringify` replacer that writes a `Map` as the object of its entries (an array of
 * `[key, value]` pairs when a key is neither a string nor a number) and a `Set` as the array of
 * its values, where JSON alone writes both as `{}` and the model would read nothing of them.
 */
export function collectionsAsJson(_key: string, value: unknown): unknown {
  if (value instanceof Map) {
    const entries = [...(value as Map<unknown, unknown>).entries()];
    return entries.every(([key]) => typeof key === 'string' || typeof key === 'number')
      ? Object.fromEntries(entries)
      : entries;
  }
  if (value instanceof Set) return [...(value as Set<unknown>).values()];
  return value;
}

/**
 * `value` as JSON text, Maps and Sets written as {@link collectionsAsJson} writes them. JSON alone
 * writes either as `{}`, so only text that holds `{}` is written again with the replacer, which
 * costs a call a member: a tool's result is written on every call.
 */
export function jsonText(value: unknown): string | undefined {
  const text = JSON.stringify(value);
  return text !== undefined && text.includes('{}')
    ? JSON.stringify(value, collectionsAsJson)
    : text;
}

/**
 * `value` as a JSON trace keeps it and reads it back: Maps and Sets written as
 * {@link collectionsAsJson} writes them, a sparse array's holes `null`. A value JSON cannot write
 * (a cycle, a BigInt) is given back as it is, for the writer to report.
 */
export function asJsonValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    const text = jsonText(value);
    return text === undefined ? value : (JSON.parse(text) as unknown);
  } catch {
    return value;
  }
}
