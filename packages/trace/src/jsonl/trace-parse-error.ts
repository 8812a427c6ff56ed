import { AgentTraceError } from '@agent-trace/core';

/** A line of a JSONL trace could not be read: not JSON, or not a trace event. */
export class TraceParseError extends AgentTraceError {
  readonly file: string;
  /** 1-based line number. */
  readonly line: number;

  constructor(options: { file: string; line: number; reason: string; cause?: unknown }) {
    super({
      message: `${options.file}:${options.line}: ${options.reason}`,
      cause: options.cause,
    });
    this.name = 'TraceParseError';
    this.file = options.file;
    this.line = options.line;
  }
}
