/** What a command produced: the bin prints it and exits with `exitCode`. Commands never exit. */
export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Exit codes shared by the commands. */
export const exitCodes = Object.freeze({
  /** The trace is fine / the behaviour is the same. */
  ok: 0,
  /** The trace is invalid / the behaviour diverged. */
  failed: 1,
  /** The trace could not be read at all. */
  unreadable: 2,
});
