/**
 * Work done a few at a time, in the background and out of live runs' way: at most `concurrency`
 * jobs run at once, the rest wait in order, and past `maxQueued` waiting a job is refused (its
 * caller counts it dropped). A job starts only while `quiet()` says no run is going on, or once
 * the oldest has waited `maxDelayMs` (so a busy app still gets its scores); `poke()` when it may
 * have become quiet.
 */
export class ScoringQueue {
  readonly #waiting: { readonly job: () => Promise<void>; readonly at: number }[] = [];
  readonly #idle: (() => void)[] = [];
  #running = 0;
  #timer: NodeJS.Timeout | undefined;
  #draining = 0;

  constructor(
    private readonly concurrency: number,
    private readonly maxQueued: number,
    private readonly quiet: () => boolean = () => true,
    private readonly maxDelayMs = 1000,
  ) {}

  /** Jobs running and waiting. */
  get pending(): number {
    return this.#running + this.#waiting.length;
  }

  /** Queues a job; false when the queue is full (the job is not run). */
  add(job: () => Promise<void>): boolean {
    if (this.#waiting.length >= this.maxQueued) return false;
    this.#waiting.push({ job, at: performance.now() });
    // Started on a later turn of the event loop: the run that queued it returns first.
    setImmediate(() => this.#next());
    return true;
  }

  /** Looks again whether a job may start (no run is going on any more). */
  poke(): void {
    setImmediate(() => this.#next());
  }

  /**
   * Runs every job now, quiet or not, and resolves when nothing runs or waits, or after
   * `timeoutMs`, whichever comes first.
   */
  idle(timeoutMs: number): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    this.#draining++;
    const finished = new Promise<void>(done => {
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      this.#idle.push(() => {
        clearTimeout(timer);
        done();
      });
    });
    this.#next();
    return finished.finally(() => this.#draining--);
  }

  /** Whether the oldest waiting job may start now; if not, looks again when it may. */
  #mayStart(): boolean {
    const oldest = this.#waiting[0];
    if (oldest === undefined) return false;
    if (this.#draining > 0 || this.quiet()) return true;
    const left = oldest.at + this.maxDelayMs - performance.now();
    if (left <= 0) return true;
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#next();
      }, left);
      this.#timer.unref();
    }
    return false;
  }

  #next(): void {
    while (this.#running < this.concurrency && this.#mayStart()) {
      const { job } = this.#waiting.shift()!;
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
