import { beforeAll, describe, expect, it } from 'vitest';
import type { EvalDefinition } from '../define-eval.js';
import { runEval, type EvalResult, type RunEvalOptions } from '../run-eval.js';
import { belowThreshold, thresholdFor, type EvalThreshold } from '../eval-gate.js';

/** How `describeEval` runs an eval and what it holds it to. */
export interface DescribeEvalOptions extends RunEvalOptions {
  /**
   * The mean score each scorer must reach: one for all, or by scorer name (a scorer not named
   * must reach 0). @defaultValue the definition's `threshold`, else 1
   */
  readonly threshold?: EvalThreshold;
}

/**
 * An eval beside the tests, with the same fakes, msw handlers and cassettes: a `describe` block
 * that runs the eval once and has a test per scorer, failing when its mean is under the
 * threshold and naming the cases that scored lowest, with why.
 *
 * @example
 * ```ts
 * describeEval(refunds, { threshold: { trajectory: 1, judge: 0.8 }, traceDir: 'traces/evals' });
 * ```
 */
export function describeEval<Input, Expected, Output>(
  definition: EvalDefinition<Input, Expected, Output>,
  options: DescribeEvalOptions = {},
): void {
  describe(`eval ${definition.name}`, () => {
    let result: EvalResult | undefined;
    beforeAll(async () => {
      result = await runEval(definition, options);
    });
    for (const { name } of definition.scorers) {
      const given = options.threshold ?? definition.threshold;
      const threshold = given === undefined ? 1 : (thresholdFor(given, name) ?? 0);
      it(`${name}: mean at least ${threshold}`, () => {
        const problem = belowThreshold(result as EvalResult, name, threshold);
        // The reasons once: as the failure's message, not again as the value it expected undefined.
        if (problem !== undefined) expect.fail(problem);
      });
    }
  });
}
