/** Small text helpers shared by the views: numbers, durations and cut strings. */

/** `1234` → `1,234`. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** Milliseconds for people: `0.4 ms`, `12 ms`, `1.25 s`, `2 min 5 s`. */
export function duration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 10) / 10} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}

/** Dollars for people: `$0.0021`; at most six decimals. */
export function dollars(usd: number): string {
  return `$${usd.toFixed(6).replace(/\.?0+$/, '')}`;
}

/** The text cut to `length` characters, with `…` when it was longer; whitespace runs folded. */
export function cut(text: string, length = 80): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

/** A value as compact JSON (strings as they are). */
export function compact(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

/** A value as indented JSON (strings as they are). */
export function pretty(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** A JSON string's value, indented when it holds JSON; otherwise the string itself. */
export function prettyJsonText(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
