/**
 * Which workflow steps may run at once: steps that may run in parallel share the lock; a step
 * that may not (`parallel: false`) holds it alone. Waiters are served in the order they came, so
 * a step waiting to run alone is not passed by steps that came after it.
 */
export class StepLock {
  #holders = 0;
  #alone = false;
  readonly #waiting: { readonly alone: boolean; readonly admit: () => void }[] = [];

  /**
   * Takes the lock, beside other sharers or `alone`: at once (undefined, nothing to wait for) when
   * it admits the step, else a promise of its turn. Give it back with {@link StepLock.leave}.
   */
  enter(alone: boolean): Promise<void> | undefined {
    if (this.#waiting.length === 0 && this.#fits(alone)) {
      this.#take(alone);
      return undefined;
    }
    return new Promise<void>(resolve => this.#waiting.push({ alone, admit: resolve }));
  }

  #fits(alone: boolean): boolean {
    return alone ? this.#holders === 0 : !this.#alone;
  }

  #take(alone: boolean): void {
    this.#holders++;
    if (alone) this.#alone = true;
  }

  /** Gives the lock back, admitting who waits and now fits. */
  leave(alone: boolean): void {
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
