import { sameJson } from '../../util/same-json.js';
import type { FeatureContext } from './hook-context.js';
import { emitFeatureEvent } from './feature-context.js';
import type { RecordedKeptState } from '../frame/kernel-options.js';

/** The name of the `feature` event that records a read of kept state: `<feature>.kept`. */
export const keptEventName = 'kept';

/**
 * State a feature keeps beyond one run, which its decisions read: a circuit breaker's failures
 * that every run of an agent shares, a shared budget's spend, what earlier runs left. Such state is
 * an input of the run, like a model's answer: where the run reads it, the recording keeps it, and
 * a rerun reads it from the recording instead of from the process.
 */
export interface KeptState {
  /**
   * True in a rerun: the state comes from the recording and the run's own steps, never from other
   * runs in this process. A feature then keeps its state for this run alone.
   */
  readonly replaying: boolean;
  /**
   * A read of the kept state named `key` (a JSON value): `live` is what the process holds now,
   * `initial` what a run that nothing came before would find. In a recorded run, a value that is
   * not what this run last knew of `key` (what it last read or wrote; `initial` at first) is
   * written as a `<feature>.kept` event under `at`, and `live` is given back. In a rerun, the
   * value the recording read here (by key, read by read), else what this run last knew, else
   * `live`.
   */
  read<Value>(at: FeatureContext, key: string, live: Value, initial: Value): Value;
  /** What this run's own step made of `key` (a spend, a failure counted): the next read's "last known". */
  wrote(key: string, value: unknown): void;
}

export type { RecordedKeptState } from '../frame/kernel-options.js';

/** The kept state of feature `name` in one run, recorded or replayed. */
export class KeptStateLog implements KeptState {
  readonly replaying: boolean;
  readonly #known = new Map<string, unknown>();
  readonly #reads = new Map<string, number>();

  constructor(
    private readonly feature: string,
    private readonly recorded: RecordedKeptState | undefined,
  ) {
    this.replaying = recorded !== undefined;
  }

  read<Value>(at: FeatureContext, key: string, live: Value, initial: Value): Value {
    const read = (this.#reads.get(key) ?? 0) + 1;
    this.#reads.set(key, read);
    if (this.recorded !== undefined) {
      const replayed = this.recorded(this.feature, key, read) as Value | undefined;
      if (replayed === undefined)
        return (this.#known.has(key) ? this.#known.get(key) : live) as Value;
      this.#record(at, key, read, replayed);
      return replayed;
    }
    const known = this.#known.has(key) ? this.#known.get(key) : initial;
    if (!sameJson(known, live)) this.#record(at, key, read, live);
    else this.#known.set(key, live);
    return live;
  }

  wrote(key: string, value: unknown): void {
    this.#known.set(key, value);
  }

  #record(at: FeatureContext, key: string, read: number, value: unknown): void {
    this.#known.set(key, value);
    emitFeatureEvent(at.record, {
      feature: this.feature,
      name: keptEventName,
      data: { key, read, value },
    });
  }
}
