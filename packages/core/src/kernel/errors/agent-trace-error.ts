const marker = Symbol.for('agent-trace.error');

/** Options every agent-trace error is constructed with. */
export interface AgentTraceErrorOptions {
  /** "What failed: why. How to fix." */
  message: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * The base class of every error agent-trace throws or reports.
 *
 * Use {@link AgentTraceError.isInstance} rather than `instanceof`: it also recognises errors
 * created by a second copy of the package (e.g. when `testing` and `cli` load their own `core`).
 */
export class AgentTraceError extends Error {
  readonly [marker] = true;

  constructor({ message, cause }: AgentTraceErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'AgentTraceError';
  }

  /** True for any agent-trace error, from any copy of the package. */
  static isInstance(error: unknown): error is AgentTraceError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
