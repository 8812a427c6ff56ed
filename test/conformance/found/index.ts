/** The programs the generator found failing, each a row of the conformance table (`pnpm conformance:fuzz` adds them). */
import type { Shape } from '../harness/shape.js';

/** Every found program's row, in the order they were found. */
export const foundShapes = async (): Promise<Shape[]> =>
  Promise.all([
    import('./fork-backoff-under-deadline.js').then(module => module.shape),
    import('./breaker-parallel-order.js').then(module => module.shape),
    import('./stream-reader-stops-in-handoff.js').then(module => module.shape),
  ]);
