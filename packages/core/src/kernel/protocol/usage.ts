/** Token usage of one model call or of a whole run. */
export interface Usage {
  /** Every input token, cached ones included. */
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Input tokens read from the provider's prompt cache (part of `promptTokens`). */
  readonly cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache (part of `promptTokens`). */
  readonly cacheWriteTokens?: number;
  /** Output tokens the model spent reasoning (part of `completionTokens`), when it says. */
  readonly reasoningTokens?: number;
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
  if (left.reasoningTokens !== undefined || right.reasoningTokens !== undefined) {
    sum.reasoningTokens = (left.reasoningTokens ?? 0) + (right.reasoningTokens ?? 0);
  }
  return sum;
}

const isCount = (value: number | undefined) =>
  value === undefined || (Number.isInteger(value) && value >= 0);

/** A token count as a trace holds it: a whole number, 0 or more (a fraction rounded, else 0). */
const count = (value: number) => (Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

/**
 * The usage a model reported, as whole token counts: a model (a provider's odd answer, a fake
 * scripted with an estimate) may give fractions or negatives, and a trace holds counts. The same
 * object when it already holds counts.
 */
export function countedUsage(usage: Usage): Usage {
  if (
    isCount(usage.promptTokens) &&
    isCount(usage.completionTokens) &&
    isCount(usage.cacheReadTokens) &&
    isCount(usage.cacheWriteTokens) &&
    isCount(usage.reasoningTokens)
  )
    return usage;
  const counted: { -readonly [Key in keyof Usage]: Usage[Key] } = {
    promptTokens: count(usage.promptTokens),
    completionTokens: count(usage.completionTokens),
  };
  if (usage.cacheReadTokens !== undefined) counted.cacheReadTokens = count(usage.cacheReadTokens);
  if (usage.cacheWriteTokens !== undefined)
    counted.cacheWriteTokens = count(usage.cacheWriteTokens);
  if (usage.reasoningTokens !== undefined) counted.reasoningTokens = count(usage.reasoningTokens);
  return counted;
}
