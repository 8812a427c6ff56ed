/**
 * `{ [key]: value }` when `value` is defined, else `{}`: spread it where a field is set only when
 * known, `{ ...defined('timeoutMs', timeoutMs) }`, so an object never holds a field set to
 * undefined. (Hot paths build their objects field by field instead: a computed key is slower.)
 */
export function defined<Key extends string, Value>(
  key: Key,
  value: Value | undefined,
): { [K in Key]?: Value } {
  return value === undefined ? {} : ({ [key]: value } as { [K in Key]?: Value });
}
