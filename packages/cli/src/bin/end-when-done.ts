/** How long a finished command lets the process end by itself before it ends it. */
const settleMs = 500;
/** How long exporters get to send what they hold once told the process is ending. */
const flushMs = 2_000;

/** The kinds of handle that are the CLI's own while it waits, not something left open. */
const own = new Set(['Timeout', 'TTYWrap', 'Immediate']);

/**
 * Ends the process once a command is done, whatever still holds it. A command's own work is over
 * when `runCli` returns (its sinks flushed, its servers closed); what still keeps the event loop
 * alive then belongs to code the CLI ran but did not write (an agent module's socket, child
 * process or connection left open), and the CLI never waits on a handle it does not own. The
 * process is given a moment to end by itself; if it does not, exporters that flush on
 * `beforeExit` are told to, one line on stderr says what held the process, and it exits with
 * `code`. The timers are unref'd: a process that ends by itself is not held by them.
 */
export function endWhenDone(code: number): void {
  setTimeout(() => {
    const held = process
      .getActiveResourcesInfo()
      .filter(kind => !own.has(kind))
      .reduce(
        (counts, kind) => counts.set(kind, (counts.get(kind) ?? 0) + 1),
        new Map<string, number>(),
      );
    const what = [...held].map(([kind, count]) => (count === 1 ? kind : `${kind} ×${count}`));
    process.stderr.write(
      `agent-trace: done; ending the process, which code the command ran still holds open (${what.join(', ') || 'handles'}). An agent module can export dispose() to close what it opens.\n`,
    );
    if (process.listenerCount('beforeExit') === 0) process.exit(code);
    process.emit('beforeExit', code);
    setTimeout(() => process.exit(code), flushMs).unref();
  }, settleMs).unref();
}
