import { AgentTraceError } from '@agent-trace/core';

/** A dataset could not be added to, read or compared: what was wrong, and how to fix it. */
export class DatasetError extends AgentTraceError {
  constructor(message: string, cause?: unknown) {
    super({ message, cause });
    this.name = 'DatasetError';
  }
}
