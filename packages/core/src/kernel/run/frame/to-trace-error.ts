import { RunAbortedError } from '../../errors/abort-error.js';
import { AgentTraceError } from '../../errors/agent-trace-error.js';
import { ModelCallError } from '../../errors/model-call-error.js';
import { RunTimeoutError } from '../../errors/run-timeout-error.js';
import { ToolCallError } from '../../errors/tool-call-error.js';
import type { TraceError } from '../../protocol/trace-event.js';
import type { FeatureRefusal } from '../../errors/feature-refusal.js';

/** An error as the trace and the `error` chunk record it: `type` is its kind, e.g. `rate_limit`. */
export function toTraceError(error: unknown): TraceError {
  if (error instanceof RunTimeoutError) return { type: 'timeout', message: error.message };
  if (error instanceof RunAbortedError) {
    if (error.cause instanceof RunTimeoutError)
      return { type: 'timeout', message: error.cause.message };
    return { type: 'aborted', message: error.message };
  }
  if (error instanceof ModelCallError) {
    const traced: TraceError = { type: error.kind, message: error.message };
    if (error.status !== undefined) traced.status = error.status;
    return error.refusal === undefined ? traced : withRefusal(traced, error.refusal);
  }
  if (error instanceof ToolCallError) {
    const traced = { type: error.kind, message: error.message };
    return error.refusal === undefined ? traced : withRefusal(traced, error.refusal);
  }
  if (AgentTraceError.isInstance(error)) return { type: error.name, message: error.message };
  if (error instanceof Error) return { type: error.name, message: error.message };
  return { type: 'unknown', message: String(error) };
}

/** A refusal's trace error: the feature's name and its own kind beside the error's type. */
function withRefusal(traced: TraceError, refusal: FeatureRefusal): TraceError {
  return { ...traced, feature: refusal.feature, refusal: refusal.kind };
}
