/** Lets at most `limit` tasks run at once; the others wait their turn, first come first served. */
export class Semaphore {
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  constructor(readonly limit: number) {}

  /** Runs `task` once a place is free, and frees the place when it settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.limit)
      await new Promise<void>(resolve => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#running--;
      else next(); // the place passes straight to the next task
    }
  }
}
