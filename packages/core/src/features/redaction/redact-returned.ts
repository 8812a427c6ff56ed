/** What cleaning a returned error reads of the run's redactor: cleaning without counting. */
export interface ReturnedRedaction {
  uncounted<T>(work: (quiet: ReturnedRedaction) => T): T;
  string(text: string): string;
  value(value: unknown): unknown;
}

/** How deep a chain of causes is followed. */
const causeDepth = 8;

/**
 * `error` with the secrets in its message, its stack and its own fields (an SDK error's response
 * body, say) replaced, along its chain of causes: what a run returns goes through the same
 * redactor as its trace and chunks. The error keeps its class (`instanceof` still holds), so it is
 * changed where it is rather than copied. Undefined, or no redactor, gives it back as it is.
 */
export function redactError<E extends Error | undefined>(
  error: E,
  redactor: ReturnedRedaction | undefined,
): E {
  if (redactor === undefined) return error;
  redactor.uncounted(quiet => {
    let current: unknown = error;
    for (let depth = 0; depth < causeDepth && current instanceof Error; depth++) {
      redactFields(current, quiet);
      current = current.cause;
    }
  });
  return error;
}

function redactFields(error: Error, redactor: ReturnedRedaction): void {
  const fields = error as unknown as Record<string, unknown>;
  for (const key of ['message', 'stack', ...Object.keys(error)]) {
    if (key === 'cause') continue;
    const value = fields[key];
    if (value === undefined || value === null || typeof value === 'number') continue;
    const redacted = redactor.value(value);
    if (redacted === value) continue;
    try {
      Object.defineProperty(error, key, { value: redacted, writable: true, configurable: true });
    } catch {
      // A frozen error keeps its field; its message and stack are still redacted where they could be.
    }
  }
}

/** An error message as a run returns it (a tool call's record): redacted, not counted. */
export function redactMessage(message: string, redactor: ReturnedRedaction | undefined): string {
  return redactor === undefined ? message : redactor.uncounted(quiet => quiet.string(message));
}
