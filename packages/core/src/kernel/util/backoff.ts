/** How long to wait between attempts of a model call. */
export interface BackoffOptions {
  /** The wait before the first retry, before jitter. @defaultValue 500 */
  baseDelayMs: number;
  /** The longest wait, before jitter. @defaultValue 30000 */
  maxDelayMs: number;
}

/**
 * The wait before retry number `retry` (1-based): exponential (`base × 2^(retry-1)`, capped at
 * `maxDelayMs`) with "equal jitter" (half fixed, half random), unless the provider said how long
 * to wait (`retry-after`), which is honoured as given.
 */
export function backoffDelayMs(
  retry: number,
  options: BackoffOptions,
  random: () => number,
  retryAfterMs: number | undefined,
): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.round(retryAfterMs);
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.round(exponential / 2 + (exponential / 2) * random());
}
