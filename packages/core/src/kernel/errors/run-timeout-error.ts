import { AgentTraceError } from './agent-trace-error.js';

/** The run's `timeoutMs` passed: the run ends with `timeout`. */
export class RunTimeoutError extends AgentTraceError {
  readonly timeoutMs: number;

  constructor({ timeoutMs }: { timeoutMs: number }) {
    super({
      message: `Run timed out after ${timeoutMs} ms (the timeoutMs run option). Raise timeoutMs, or find out which model call or tool is slow with 'agent-trace replay'.`,
    });
    this.name = 'RunTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}
