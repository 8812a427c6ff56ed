import { RunTimeoutError } from '@agent-trace/core';
import type { ReplayClock } from './replay-clock.js';

/**
 * A fork's run deadline (`timeoutMs`). Before the fork point the fork replays the recording on its
 * clock, where the deadline is the recording's: the recorded run was not stopped there, so neither
 * is the fork (a real timer would count the replay's own time). Once the fork goes live, what is
 * left of the deadline on the recording's clock runs on a real timer.
 */
export class ForkDeadline {
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param timeoutMs - the fork's deadline; undefined for none
   * @param startMs - when the recorded run started, on the recording's clock
   */
  constructor(
    private readonly timeoutMs: number | undefined,
    private readonly clock: ReplayClock,
    private readonly startMs: number,
  ) {}

  /** The signal the fork's run is given (aborted when the deadline passes); none without one. */
  get signal(): AbortSignal | undefined {
    return this.timeoutMs === undefined ? undefined : this.#controller.signal;
  }

  /** The fork went live: the rest of the deadline starts on a real timer (once). */
  live(): void {
    const { timeoutMs } = this;
    if (timeoutMs === undefined || this.#timer !== undefined) return;
    const leftMs = Math.max(0, this.startMs + timeoutMs - this.clock.now());
    this.#timer = setTimeout(
      () => this.#controller.abort(new RunTimeoutError({ timeoutMs })),
      leftMs,
    );
  }

  /** The fork ended: its timer goes. */
  clear(): void {
    clearTimeout(this.#timer);
  }
}
