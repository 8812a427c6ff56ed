/**
 * The connections to other processes that agent-trace opened in this process for the
 * application (MCP servers) and the application has not closed yet. A program that runs a
 * module it did not write (the CLI's `rerun`, a test runner) closes what is left when it is done,
 * so an open connection never holds the process after its work ended.
 */
const open: Set<() => Promise<void>> = ((globalThis as Record<symbol, unknown>)[
  // One set for the process, whichever copy of this package a module loaded.
  Symbol.for('agent-trace.open-connections')
] ??= new Set()) as Set<() => Promise<void>>;

/**
 * Keeps `close` until it is called or the returned function forgets it (the connection was
 * closed by its owner).
 */
export function trackConnection(close: () => Promise<void>): () => void {
  open.add(close);
  return () => {
    open.delete(close);
  };
}

/**
 * Closes every connection agent-trace opened in this process that is still open (MCP servers
 * `connectMcp` connected: a stdio server's process ends with it). Returns how many it closed;
 * a close that fails is not retried and does not stop the others.
 *
 * @example
 * ```ts
 * afterAll(() => closeOpenConnections());
 * ```
 */
export async function closeOpenConnections(): Promise<number> {
  const closing = [...open];
  open.clear();
  await Promise.allSettled(closing.map(close => close()));
  return closing.length;
}
