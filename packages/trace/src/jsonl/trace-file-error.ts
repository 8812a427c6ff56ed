import { AgentTraceError } from '@agent-trace/core';

/** A trace file could not be opened, read or written. */
export class TraceFileError extends AgentTraceError {
  readonly file: string;
  /** The system error code, e.g. `ENOENT`, `EACCES`, `ENOSPC`. */
  readonly code: string | undefined;

  constructor(options: { file: string; action: string; cause: unknown }) {
    const code = (options.cause as { code?: unknown } | undefined)?.code;
    const text = typeof code === 'string' ? code : undefined;
    super({
      message: `Cannot ${options.action} trace file '${options.file}': ${describe(options.cause)}. ${advice(text, options.action)}`,
      cause: options.cause,
    });
    this.name = 'TraceFileError';
    this.file = options.file;
    this.code = text;
  }
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

function advice(code: string | undefined, action: string): string {
  const writing = action.includes('writ');
  switch (code) {
    case 'ENOENT':
      return 'Check the path; the file does not exist.';
    case 'EACCES':
    case 'EPERM':
      return writing
        ? 'Choose a path you may write to, or fix its permissions.'
        : 'Fix its permissions so this user may read it (or run as a user who may).';
    case 'EISDIR':
      return 'The path is a directory; give a file name such as traces/run.jsonl.';
    case 'ENOSPC':
      return 'The disk is full; free space or write the trace elsewhere.';
    default:
      return 'Check the path and try again.';
  }
}
