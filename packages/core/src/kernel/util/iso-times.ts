/**
 * Times as ISO 8601 text (`toISOString`), for many times close together: the text of a second is
 * made once and each millisecond appended to it. Events of parallel calls delivered in order
 * alternate between a few times; a cache of the last time alone made a `Date` for nearly each.
 */
export class IsoTimes {
  #second = Number.NaN;
  /** The text of `#second` up to and with its `.`: `2026-11-26T12:00:01.` */
  #prefix = '';
  /** The last time asked for and its text: a run's events mostly fall in the same millisecond. */
  #lastMs = Number.NaN;
  #last = '';

  /** `new Date(timeMs).toISOString()`, the same text, made cheaply. */
  text(timeMs: number): string {
    if (timeMs === this.#lastMs) return this.#last;
    this.#last = this.#made(timeMs);
    this.#lastMs = timeMs;
    return this.#last;
  }

  #made(timeMs: number): string {
    if (!Number.isFinite(timeMs) || Math.abs(timeMs) > 8.64e15)
      return new Date(timeMs).toISOString(); // throws as a Date does for a time it cannot show
    const ms = Math.trunc(timeMs) + 0; // a Date keeps whole milliseconds, and no -0
    const second = Math.floor(ms / 1000);
    if (second !== this.#second) {
      this.#second = second;
      this.#prefix = new Date(second * 1000).toISOString().slice(0, -4);
    }
    const milli = ms - second * 1000;
    return `${this.#prefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  }
}
