/** The programs the generator found failing, each a row of the conformance table (`pnpm conformance:fuzz` adds them). */
import type { Shape } from '../harness/shape.js';

/** Every found program's row, in the order they were found. */
export const foundShapes = async (): Promise<Shape[]> =>
  Promise.all([
    import('./answer-checks-after-other-answer.js').then(module => module.shape),
    import('./breaker-parallel-order.js').then(module => module.shape),
    import('./budget-between-parallel-answers.js').then(module => module.shape),
    import('./cassette-hits-under-budget.js').then(module => module.shape),
    import('./conversation-turn-resumed-after-approval.js').then(module => module.shape),
    import('./deadline-stops-one-workflow-part-between-answers.js').then(module => module.shape),
    import('./final-answer-retry-under-budget.js').then(module => module.shape),
    import('./for-each-item-cut-by-deadline.js').then(module => module.shape),
    import('./fork-backoff-under-deadline.js').then(module => module.shape),
    import('./fork-before-point-under-real-deadline.js').then(module => module.shape),
    import('./found-2-mwzk7mq8.js').then(module => module.shape),
    import('./one-agent-two-turns-alike.js').then(module => module.shape),
    import('./outside-abort-before-workflow-starts-next-step.js').then(module => module.shape),
    import('./outside-abort-between-three-workflow-agents.js').then(module => module.shape),
    import('./parallel-budget-on-virtual-clock.js').then(module => module.shape),
    import('./parallel-part-between-calls-at-stop.js').then(module => module.shape),
    import('./planned-run-cache-miss-breaker.js').then(module => module.shape),
    import('./quota-refusal-before-retries-of-parallel-calls.js').then(module => module.shape),
    import('./quota-used-up-before-guardrail-block.js').then(module => module.shape),
    import('./rate-limit-across-turns-stream-stop.js').then(module => module.shape),
    import('./rate-limit-shared-by-turns-breaker.js').then(module => module.shape),
    import('./rate-limit-wait-cut-by-deadline-in-workflow.js').then(module => module.shape),
    import('./scrubbed-request-retry-refused-by-breaker.js').then(module => module.shape),
    import('./shared-budget-estimate-exactly-at-limit.js').then(module => module.shape),
    import('./shared-budget-second-turn.js').then(module => module.shape),
    import('./step-limit-in-workflow.js').then(module => module.shape),
    import('./stream-reader-stops-in-handoff.js').then(module => module.shape),
    import('./stream-stop-mid-answer-noticed-after-tools.js').then(module => module.shape),
    import('./workflow-answer-before-outside-stop.js').then(module => module.shape),
    import('./workflow-rate-limit-stepping-clock.js').then(module => module.shape),
    import('./workflow-step-after-outside-stop.js').then(module => module.shape),
  ]);
