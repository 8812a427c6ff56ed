import { AgentTraceError } from './agent-trace-error.js';

/**
 * Thrown when an agent, tool, model or run is set up wrongly (a duplicate tool name, a limit that
 * is not a positive integer, a missing model). Raised at `agent()` / `tool()` / `run()` time, never
 * in the middle of a run.
 */
export class ConfigurationError extends AgentTraceError {
  /** The option that is wrong, e.g. `limits.maxSteps`. */
  readonly option: string;

  constructor({ message, option, cause }: { message: string; option: string; cause?: unknown }) {
    super({ message, cause });
    this.name = 'ConfigurationError';
    this.option = option;
  }
}
