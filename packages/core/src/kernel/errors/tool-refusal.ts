import { AgentTraceError } from './agent-trace-error.js';

const refusal = Symbol.for('agent-trace.tool-refusal');

/**
 * A tool refused a call on its input (an expression that is not arithmetic, a query that writes):
 * made by {@link toolError}. The model reads the message and may correct itself; the call is not
 * retried and the tool stays available, unlike a tool that crashed.
 */
export class ToolRefusal extends AgentTraceError {
  readonly [refusal] = true;

  constructor(message: string) {
    super({ message });
    this.name = 'ToolRefusal';
  }

  /** True for a refusal made by any copy of this package. */
  static isRefusal(error: unknown): error is ToolRefusal {
    return typeof error === 'object' && error !== null && refusal in error;
  }
}

/**
 * What a tool throws to refuse a call the model can fix: the model reads
 * `Tool '<name>' refused the call: <message>` as the call's result, and the call is neither
 * retried nor counted against the tool (any other throw is a failure: retried, then the tool is
 * declared unavailable). Say what was wrong and what would be accepted.
 *
 * @example
 * ```ts
 * execute: ({ sql }) => {
 *   if (!/^\s*select\b/i.test(sql)) throw toolError('Only SELECT queries are allowed. Write one SELECT.');
 *   return db.query(sql);
 * }
 * ```
 */
export function toolError(message: string): ToolRefusal {
  return new ToolRefusal(message);
}
