/** Lets at most `limit` tasks run at once; the others wait their turn, first come first served. */
export class Semaphore {
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  constructor(readonly limit: number) {}

  /**
   * Takes a place: at once (undefined, nothing to wait for) when one is free, else a promise of
   * the place. Give it back with {@link Semaphore.leave}.
   */
  enter(): Promise<void> | undefined {
    if (this.#running < this.limit) {
      this.#running++;
      return undefined;
    }
    return new Promise<void>(resolve => this.#waiting.push(resolve));
  }

  /** Gives a place back: to the first waiting, if any. */
  leave(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#running--;
    else next(); // the place passes straight to the next task
  }
}
