import { AgentTraceError } from './agent-trace-error.js';

/** Raised inside the loop when the run's `AbortSignal` fires; the run ends with `aborted`. */
export class RunAbortedError extends AgentTraceError {
  constructor({ reason }: { reason?: unknown } = {}) {
    super({
      message: `Run aborted${describeReason(reason)}.`,
      cause: reason,
    });
    this.name = 'RunAbortedError';
  }
}

function describeReason(reason: unknown): string {
  if (typeof reason === 'string') return `: ${reason}`;
  if (reason instanceof Error && reason.name !== 'AbortError') return `: ${reason.message}`;
  return ': the AbortSignal passed to the run fired';
}
