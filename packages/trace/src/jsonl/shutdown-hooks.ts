/** A sink that must write what it holds before the process goes away. */
export interface ShutdownAware {
  /** Closes and seals unfinished runs, writes everything; never throws. */
  sealInterruptedRuns(reason: string): void;
  /** Writes what is buffered; never called when unfinished runs go on. */
  flushSync(): void;
}

const sinks = new Set<ShutdownAware>();
let installed = false;

/**
 * Keeps `sink` in the set written out at process exit and on SIGINT / SIGTERM. The handlers are
 * installed with the first sink, not on import.
 */
export function registerForShutdown(sink: ShutdownAware): void {
  sinks.add(sink);
  if (installed) return;
  installed = true;
  process.on('exit', () => sealAll('the process exited before the run ended'));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const onSignal = (): void => {
      if (process.listenerCount(signal) > 1) {
        // Someone else handles the signal (and may end the runs properly): only write the buffer.
        for (const sink of sinks) {
          try {
            sink.flushSync();
          } catch {
            // Reported through the run when it flushes.
          }
        }
        return;
      }
      sealAll(`the process received ${signal}`);
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/** Forgets `sink` (it was closed). */
export function unregisterForShutdown(sink: ShutdownAware): void {
  sinks.delete(sink);
}

function sealAll(reason: string): void {
  for (const sink of sinks) sink.sealInterruptedRuns(reason);
}
