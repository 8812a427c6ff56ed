import { collectionsAsJson } from './json-collections.js';

/**
 * JSON with object keys sorted at every level, so that `{ a: 1, b: 2 }` and `{ b: 2, a: 1 }` give
 * the same text. Used to recognise repeated tool calls, and to hash an eval's data and configuration.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  // As JSON.stringify does: a value with toJSON (a Date) stands for what it returns.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  // A hole of a sparse array is `null`, as JSON writes it (`map` would skip it).
  if (Array.isArray(value)) return `[${Array.from(value, canonicalJson).join(',')}]`;
  // A Map or a Set as a tool's result reads to the model (see collectionsAsJson).
  if (value instanceof Map || value instanceof Set)
    return canonicalJson(collectionsAsJson('', value));
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter(key => record[key] !== undefined)
    .sort();
  return `{${keys.map(key => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}
