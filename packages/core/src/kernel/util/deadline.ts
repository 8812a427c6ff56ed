/** A time limit on some work: the signal that stops it, and whether the time has passed. */
export interface Deadline {
  /** `parent`, or the time limit, whichever fires first. */
  readonly signal: AbortSignal | undefined;
  /** True once the time is up (not when only `parent` fired). */
  passed(): boolean;
  /** Stops the timer: call it when the work ends. */
  clear(): void;
}

/**
 * `parent` combined with a limit of `timeoutMs`, aborted with `reason(timeoutMs)` when the time is up.
 * Without `timeoutMs`, just `parent`: no timer, no controller.
 */
export function deadline(
  parent: AbortSignal | undefined,
  timeoutMs: number | undefined,
  reason: (timeoutMs: number) => unknown,
): Deadline {
  if (timeoutMs === undefined)
    return { signal: parent, passed: () => false, clear: () => undefined };
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(reason(timeoutMs)), timeoutMs);
  return {
    signal: parent === undefined ? timer.signal : AbortSignal.any([parent, timer.signal]),
    passed: () => timer.signal.aborted,
    clear: () => clearTimeout(timeout),
  };
}
