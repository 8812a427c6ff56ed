/**
 * How a run keeps secrets out of what it writes, streams and returns. The tracer, the chunks, the
 * conversation's hashes and the returned errors all go through the one a run is given; the
 * redaction feature gives it.
 */
export interface Redaction {
  /** Replacements made in what the trace and chunks carry, for `run_end.redactions`. */
  readonly count: number;
  /**
   * The same object for redactions that redact alike (the same rules, no function of your own):
   * what one hashed of a message (a conversation's history) another reuses. Absent: never reused.
   */
  readonly alike?: object;
  /** `value` with secrets replaced in every string and in the values of secret fields (counted). */
  value<T>(value: T): T;
  /** `text` with secrets replaced (counted). */
  string(text: string): string;
  /** A filter for text that arrives in pieces: no secret split across pieces shows. */
  stream(): StreamRedaction;
  /** An error a run returns, redacted where it is (its class kept), not counted. */
  error<E extends Error | undefined>(error: E): E;
  /** A message a run returns (a tool call's error), redacted, not counted. */
  message(text: string): string;
}

/** Redacts text that arrives in pieces. */
export interface StreamRedaction {
  /** Takes a piece; gives the redacted text that can be shown now (maybe empty). */
  push(piece: string): string;
  /** At the end: the rest, redacted. */
  flush(): string;
}
