import type { StepGraph } from './step-record.js';

/**
 * Starts each step of a workflow once the steps it depends on have ended, by counting them down:
 * a step that waited on a promise of the step before it paid three promises a step in a chain.
 * Steps ready at the same time start in trace order.
 */
export class StepSchedule {
  readonly #remaining: number[];
  /** The steps ready to start, by position in trace order; those before `#next` have started. */
  readonly #ready: number[] = [];
  #next = 0;
  #starting = false;

  constructor(
    private readonly graph: StepGraph,
    /** Starts the step at a position; it tells {@link StepSchedule.ended} when it has ended. */
    private readonly start: (index: number) => void,
  ) {
    this.#remaining = [...graph.waiting];
  }

  /** Starts the steps that wait for none. */
  begin(): void {
    this.#remaining.forEach((count, index) => {
      if (count === 0) this.#ready.push(index);
    });
    this.#startReady();
  }

  /** The step at `index` ended (or had ended before a pause): the steps it held up may start. */
  ended(index: number): void {
    for (const dependent of this.graph.dependents[index] ?? [])
      if (--(this.#remaining[dependent] as number) === 0) this.#ready.push(dependent);
    this.#startReady();
  }

  // A loop, not recursion: a step that ends as it starts (one that ended before a pause) hands on
  // to the next without a deeper stack.
  #startReady(): void {
    if (this.#starting) return;
    this.#starting = true;
    try {
      while (this.#next < this.#ready.length) this.start(this.#ready[this.#next++] as number);
    } finally {
      this.#starting = false;
    }
  }
}
