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
  /** Times the LLM is asked again for a final answer that does not decode against the schema. */
  maxDecodeRetries: 2,
  /** Malformed answers an agent in ReAct mode may give in its turn; one more stops the run. */
  maxMalformedAnswers: 3,
  /** Handoffs in a row (A → B → C is 2) before a run stops with `handoff_depth_exceeded`. */
  maxHandoffDepth: 3,
  /** How long a model's stream may send nothing before the call fails as `stream_interrupted`. */
  streamIdleTimeoutMs: 120_000,
  /** Attempts per model call, the first included, before the fallback model (if any). */
  modelAttempts: 3,
  /** The wait before the first model retry, before jitter; doubles with each retry. */
  retryBaseDelayMs: 500,
  /** The longest wait between model retries, before jitter (a provider's retry-after wins). */
  retryMaxDelayMs: 30_000,
  /** Retries of a failing tool execution; after them the tool is unavailable for the run. */
  toolRetries: 2,
  /** Consecutive failures of a model or tool that open its circuit breaker. */
  circuitFailureThreshold: 5,
  /** How long an open circuit refuses calls before letting a trial call through. */
  circuitCooldownMs: 30_000,
});
