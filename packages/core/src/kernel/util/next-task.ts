/** How many {@link nextTask} waits are queued: work that goes on once they end. */
let queued = 0;

/**
 * Resolves in a task of its own, after the promise jobs and I/O already queued: what a reply from
 * outside the process (a provider's answer, a service's) does by its nature. Virtual time does
 * not move while one is queued (the work after it has not gone as far as it can).
 */
export function nextTask(): Promise<void> {
  queued++;
  return new Promise(resolve =>
    setImmediate(() => {
      queued--;
      resolve();
    }),
  );
}

/** True while a {@link nextTask} wait is queued. */
export function tasksQueued(): boolean {
  return queued > 0;
}
