/**
 * Which workflow steps may run at once: steps that may run in parallel share the lock; a step
 * that may not (`parallel: false`) holds it alone. Waiters are served in the order they came, so
 * a step waiting to run alone is not passed by steps that came after it.
 */
export class StepLock {
  #holders = 0;
  #alone = false;
  readonly #waiting: { readonly alone: boolean; readonly admit: () => void }[] = [];

  /** Runs `work` once the lock admits it: beside other sharers, or `alone`. */
  async hold<T>(alone: boolean, work: () => Promise<T>): Promise<T> {
    await this.#acquire(alone);
    try {
      return await work();
    } finally {
      this.#release(alone);
    }
  }

  #fits(alone: boolean): boolean {
    return alone ? this.#holders === 0 : !this.#alone;
  }

  #take(alone: boolean): void {
    this.#holders++;
    if (alone) this.#alone = true;
  }

  #acquire(alone: boolean): Promise<void> {
    if (this.#waiting.length === 0 && this.#fits(alone)) {
      this.#take(alone);
      return Promise.resolve();
    }
    return new Promise(resolve => this.#waiting.push({ alone, admit: resolve }));
  }

  #release(alone: boolean): void {
    this.#holders--;
    if (alone) this.#alone = false;
    for (let next = this.#waiting[0]; next !== undefined && this.#fits(next.alone);) {
      this.#waiting.shift();
      this.#take(next.alone);
      next.admit();
      next = this.#waiting[0];
    }
  }
}
