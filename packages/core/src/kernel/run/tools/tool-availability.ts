import { ToolCallError } from '../../errors/tool-call-error.js';
import type { ToolCallOutcome } from '../../tool/execute-tool-call.js';

/** Failures that make a tool unavailable at once: its breaker is open, or its server is gone. */
export function gone(outcome: ToolCallOutcome): boolean {
  return (
    !outcome.ok && (outcome.error.kind === 'circuit_open' || outcome.error.kind === 'server_failed')
  );
}

/** Failures worth trying again: the tool ran and broke, or took too long. */
export function isRetryable(outcome: ToolCallOutcome): boolean {
  return (
    !outcome.ok && (outcome.error.kind === 'execution_failed' || outcome.error.kind === 'timeout')
  );
}

/** A call's last failure as the LLM reads it once the tool is unavailable: do not call it again. */
export function unavailable(outcome: ToolCallOutcome, attempts: number): ToolCallOutcome {
  if (outcome.ok) return outcome;
  const { error } = outcome;
  const why =
    error.kind === 'circuit_open'
      ? 'its circuit breaker is open'
      : `it failed ${attempts} time${attempts === 1 ? '' : 's'} (last error: ${error.message})`;
  const message = `Tool '${error.toolName}' is unavailable: ${why}. Do not call it again; answer with what you have.`;
  return {
    ok: false,
    args: outcome.args,
    error: new ToolCallError({
      kind: 'unavailable',
      toolName: error.toolName,
      message,
      cause: error,
    }),
    content: message,
  };
}
