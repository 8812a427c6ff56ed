/** The store's database is held by other processes for longer than the wait allowed. */
export class StoreBusyError extends Error {
  constructor(file: string, waitedMs: number, cause: unknown) {
    super(
      `The experiment store ${file} stayed locked by another process for ${Math.round(waitedMs)} ms. Another agent-trace eval may be writing a very large experiment: try again, or give a longer lockTimeoutMs.`,
      { cause },
    );
    this.name = 'StoreBusyError';
  }
}
