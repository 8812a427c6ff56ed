import type { ToolCallRequest } from '../protocol/message.js';

/**
 * The first call of a response that would take its key (a tool name, or a fingerprint) past
 * `limit`, counting earlier calls (`counts`) and the calls before it in the same response; with
 * how many times the key had run. Undefined when every call is within the limit.
 */
export function firstCallOverLimit(
  calls: readonly ToolCallRequest[],
  keyOf: (call: ToolCallRequest) => string,
  counts: ReadonlyMap<string, number>,
  limit: number,
): { call: ToolCallRequest; earlier: number } | undefined {
  const inThisResponse = new Map<string, number>();
  for (const call of calls) {
    const key = keyOf(call);
    const earlier = (counts.get(key) ?? 0) + (inThisResponse.get(key) ?? 0);
    if (earlier >= limit) return { call, earlier };
    inThisResponse.set(key, (inThisResponse.get(key) ?? 0) + 1);
  }
  return undefined;
}
