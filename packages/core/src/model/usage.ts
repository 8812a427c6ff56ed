/** Token usage of one model call or of a whole run. */
export interface Usage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** Usage of nothing: the starting point of a sum. */
export const zeroUsage: Usage = Object.freeze({ promptTokens: 0, completionTokens: 0 });

/** Adds two usages. */
export function addUsage(left: Usage, right: Usage): Usage {
  return {
    promptTokens: left.promptTokens + right.promptTokens,
    completionTokens: left.completionTokens + right.completionTokens,
  };
}
