/**
 * Work done a few at a time, in the background: at most `concurrency` jobs run at once, the rest
 * wait in order, and past `maxQueued` waiting a job is refused (its caller counts it dropped).
 */
export class ScoringQueue {
  readonly #waiting: (() => Promise<void>)[] = [];
  readonly #idle: (() => void)[] = [];
  #running = 0;

  constructor(
    private readonly concurrency: number,
    private readonly maxQueued: number,
  ) {}

  /** Jobs running and waiting. */
  get pending(): number {
    return this.#running + this.#waiting.length;
  }

  /** Queues a job; false when the queue is full (the job is not run). */
  add(job: () => Promise<void>): boolean {
    if (this.#waiting.length >= this.maxQueued) return false;
    this.#waiting.push(job);
    // Started on a later turn of the event loop: the run that queued it returns first.
    setImmediate(() => this.#next());
    return true;
  }

  /** Resolves when nothing runs or waits, or after `timeoutMs`, whichever comes first. */
  idle(timeoutMs: number): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise(done => {
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      this.#idle.push(() => {
        clearTimeout(timer);
        done();
      });
    });
  }

  #next(): void {
    while (this.#running < this.concurrency && this.#waiting.length > 0) {
      const job = this.#waiting.shift() as () => Promise<void>;
      this.#running++;
      void job()
        .catch(() => undefined)
        .finally(() => {
          this.#running--;
          this.#next();
          if (this.pending === 0) for (const done of this.#idle.splice(0)) done();
        });
    }
  }
}
