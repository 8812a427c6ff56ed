import { fstatSync } from 'node:fs';

/** How long a finished command lets the process end by itself before it ends it. */
const settleMs = 500;
/** How long exporters get to send what they hold once told the process is ending. */
const flushMs = 2_000;

/** The kinds of handle that are the CLI's own while it waits, not something left open. */
const own = new Set(['TTYWrap', 'Immediate']);

/** What each kind of handle is, for people. */
const words: Readonly<Record<string, string>> = {
  Timeout: 'a timer',
  TCPWrap: 'a socket',
  TCPSocketWrap: 'a socket',
  TCPServerWrap: 'a server',
  PipeWrap: 'a pipe',
  PipeServerWrap: 'a pipe server',
  ProcessWrap: 'a child process',
  FSReqCallback: 'a file operation',
  UDPWrap: 'a UDP socket',
  MessagePort: 'a worker port',
  Worker: 'a worker',
};

/** How many of the process's own output streams are pipes or sockets (each a `PipeWrap` handle). */
function ownPipes(): number {
  let pipes = 0;
  for (const fd of [1, 2]) {
    try {
      const stat = fstatSync(fd);
      if (stat.isFIFO() || stat.isSocket()) pipes++;
    } catch {
      // Closed: not a handle.
    }
  }
  return pipes;
}

/**
 * What holds the process besides the CLI's own handles (its stdout and stderr when they are
 * pipes), by kind, in words: `a timer (Timeout)`, `2 × a socket (TCPSocketWrap)`.
 */
export function heldOpen(kinds: readonly string[], pipes: number): string[] {
  const counts = new Map<string, number>();
  for (const kind of kinds) if (!own.has(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const left = (counts.get('PipeWrap') ?? 0) - pipes;
  if (left > 0) counts.set('PipeWrap', left);
  else counts.delete('PipeWrap');
  return [...counts].map(([kind, count]) => {
    const what = `${words[kind] ?? 'a handle'} (${kind})`;
    return count === 1 ? what : `${count} × ${what}`;
  });
}

/**
 * Ends the process once a command is done, whatever still holds it. A command's own work is over
 * when `runCli` returns (its sinks flushed, its servers closed); what still keeps the event loop
 * alive then belongs to code the CLI ran but did not write (an agent module's socket, child
 * process, connection or timer left open), and the CLI never waits on a handle it does not own.
 * The process is given a moment to end by itself; if it does not, exporters that flush on
 * `beforeExit` are told to, one line on stderr says what held the process, and it exits with
 * `code`. The timers are unref'd: a process that ends by itself is not held by them.
 */
export function endWhenDone(code: number): void {
  setTimeout(() => {
    const what = heldOpen(process.getActiveResourcesInfo(), ownPipes());
    process.stderr.write(
      `agent-trace: done; ending the process, which code the command ran still holds open (${what.join(', ') || 'handles'}). An agent module can export dispose() to close what it opens.\n`,
    );
    if (process.listenerCount('beforeExit') === 0) process.exit(code);
    process.emit('beforeExit', code);
    setTimeout(() => process.exit(code), flushMs).unref();
  }, settleMs).unref();
}
