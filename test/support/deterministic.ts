import { sequentialIds, steppingClock, type RunOptions } from '@agent-trace/core';

/** Run options with a fixed clock and counting ids, so traces are reproducible. */
export function deterministic(): Pick<RunOptions, 'clock' | 'ids'> {
  return { clock: steppingClock(), ids: sequentialIds() };
}
