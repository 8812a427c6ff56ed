/**
 * True when `left` and `right` are the same JSON: the same text once written, object keys in any
 * order, `undefined` members left out, a value with `toJSON` (a `Date`) standing for what it gives.
 * Walks both without writing them out, and stops at the first difference.
 */
export function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null)
    return typeof left === 'number' && typeof right === 'number'
      ? !Number.isFinite(left) && !Number.isFinite(right) // both written as null
      : false;
  const a = asJson(left);
  const b = asJson(right);
  if (a !== left || b !== right) return sameJson(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => sameJson(item, other[index]));
  }
  const one = a as Record<string, unknown>;
  const two = b as Record<string, unknown>;
  const keys = Object.keys(one).filter(key => one[key] !== undefined);
  const otherCount = Object.keys(two).filter(key => two[key] !== undefined).length;
  return keys.length === otherCount && keys.every(key => sameJson(one[key], two[key]));
}

function asJson(value: object): unknown {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function' ? (toJSON as () => unknown).call(value) : value;
}
