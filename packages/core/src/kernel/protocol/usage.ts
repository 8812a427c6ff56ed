/** Token usage of one model call or of a whole run. */
export interface Usage {
  /** Every input token, cached ones included. */
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Input tokens read from the provider's prompt cache (part of `promptTokens`). */
  readonly cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache (part of `promptTokens`). */
  readonly cacheWriteTokens?: number;
}

/** Usage of nothing: the starting point of a sum. */
export const zeroUsage: Usage = Object.freeze({ promptTokens: 0, completionTokens: 0 });

/** Adds two usages (cache counts only when either has them). */
export function addUsage(left: Usage, right: Usage): Usage {
  const sum: { -readonly [Key in keyof Usage]: Usage[Key] } = {
    promptTokens: left.promptTokens + right.promptTokens,
    completionTokens: left.completionTokens + right.completionTokens,
  };
  if (left.cacheReadTokens !== undefined || right.cacheReadTokens !== undefined) {
    sum.cacheReadTokens = (left.cacheReadTokens ?? 0) + (right.cacheReadTokens ?? 0);
  }
  if (left.cacheWriteTokens !== undefined || right.cacheWriteTokens !== undefined) {
    sum.cacheWriteTokens = (left.cacheWriteTokens ?? 0) + (right.cacheWriteTokens ?? 0);
  }
  return sum;
}
