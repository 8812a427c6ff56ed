import { AgentTraceError } from '@agent-trace/core';

/** A feedback could not be recorded: what was wrong with it or with the run it names, and how to fix it. */
export class FeedbackError extends AgentTraceError {
  constructor(message: string, cause?: unknown) {
    super({ message, cause });
    this.name = 'FeedbackError';
  }
}
