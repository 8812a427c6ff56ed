/**
 * Every behaviour-changing default of the agent loop, in one place. Documented in the README's
 * limits table; change both together.
 */
export const defaults = Object.freeze({
  /** Model calls one agent may make in a run before it stops with `max_steps`. */
  maxSteps: 10,
  /** Times one call (same tool, same canonical arguments) may run; one more stops the run. */
  maxDuplicateToolCalls: 2,
  /** Times one tool may run in an agent's turn; one more stops the run. */
  maxToolCallsPerTool: 5,
});
