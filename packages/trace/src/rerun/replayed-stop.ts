import {
  RunAbortedError,
  RunTimeoutError,
  type TraceEvent,
  type TraceEventOf,
  type TraceSink,
} from '@agent-trace/core';
import type { ReplayClock } from './replay-clock.js';

/** How a recorded run was stopped from outside its code, as its `run_end` says. */
interface RecordedStop {
  /** `aborted`: its caller's signal, or a stream's reader that stopped; `timeout`: its deadline. */
  readonly reason: 'aborted' | 'timeout';
  /** The error the stop ended the run with: the calls it cut carry the same. */
  readonly error: { readonly type: string; readonly message: string };
  /** When the run ended, on the recording's clock. */
  readonly atMs: number;
  /** The deadline's `timeoutMs`, for a run stopped by it. */
  readonly timeoutMs: number | undefined;
  /**
   * The last event the run wrote before the stop reached it (the n-th of its kind and agent): the
   * rerun is stopped as it writes the same, so it is stopped at the same place.
   */
  readonly after: { readonly kind: string; readonly agent: string; readonly nth: number };
}

/**
 * A stop from outside a recorded run, replayed: the caller's `AbortSignal` (or a stream's reader
 * that stopped reading) fires again where it reached the recorded run (as the rerun writes the
 * event the recorded run wrote last before it: a call it cut, a wait it ended, a step not taken),
 * and so does the run's deadline when the rerun's `timeoutMs` is the recorded one. A rerun whose
 * `timeoutMs` differs decides again on the recording's clock: its deadline passes when a recorded
 * answer (or a wait) goes past it, and a call the recorded deadline cut goes on, which the
 * recording cannot answer (a divergence, in words).
 */
export class ReplayedStop {
  readonly #controller = new AbortController();
  readonly #recorded: RecordedStop | undefined;
  readonly #clock: ReplayClock;
  readonly #startMs: number;
  /** The rerun's deadline, when it decides one of its own (its `timeoutMs` is not the recorded one). */
  #deadlineMs: number | undefined;
  #timeoutMs: number | undefined;
  #armed = false;

  /** How many events of each kind and agent the rerun has written, while the stop waits for one. */
  readonly #written = new Map<string, number>();

  /**
   * @param run - the recorded run's events
   * @param startMs - when it started, on the recording's clock
   * @param clock - the rerun's clock
   */
  /** The recorded run's deadline, whether or not it stopped the run. */
  readonly #recordedTimeoutMs: number | undefined;

  constructor(run: readonly TraceEvent[], startMs: number, clock: ReplayClock) {
    this.#recorded = recordedStop(run);
    this.#clock = clock;
    this.#startMs = startMs;
    const start = run.find(event => event.event === 'run_start');
    this.#recordedTimeoutMs =
      (start?.event === 'run_start' ? start.timeout_ms : undefined) ?? this.#recorded?.timeoutMs;
  }

  /**
   * A sink for the rerun's trace: it stops the rerun as it writes the event the recorded run wrote
   * last before its stop (when the stop is replayed there, not decided again).
   */
  readonly sink: TraceSink = {
    write: event => {
      const after = this.#recorded?.after;
      if (!this.#armed || after === undefined) return;
      // A recorded deadline the rerun's own replaces is not replayed: it is decided again.
      if (this.#recorded?.reason === 'timeout' && this.#deadlineMs !== undefined) return;
      if (event.event !== after.kind || event.agent !== after.agent) return;
      const key = `${event.event}\u0000${event.agent}`;
      const count = (this.#written.get(key) ?? 0) + 1;
      this.#written.set(key, count);
      if (count === after.nth) this.#fire('recorded');
    },
    flush: () => Promise.resolve(),
  };

  /**
   * Makes the stop part of a rerun, whose run is given {@link ReplayedStop.signal}: from now on the
   * recorded stop is replayed. `timeoutMs` is the rerun's own (its run options'), or the
   * recorded one when it sets none.
   */
  arm(timeoutMs: number | undefined): void {
    this.#armed = true;
    this.#timeoutMs = timeoutMs ?? this.#recordedTimeoutMs;
    // The recorded deadline is replayed where it stopped the run; another is decided again.
    const ownDeadline =
      this.#timeoutMs !== undefined && this.#timeoutMs !== this.#recordedTimeoutMs;
    this.#deadlineMs = ownDeadline ? this.#startMs + (this.#timeoutMs as number) : undefined;
    // A wait that would end after the rerun's own deadline is cut by it.
    if (this.#deadlineMs !== undefined)
      this.#clock.stopAt(this.#deadlineMs, () => this.#fire('deadline'));
  }

  /** True when the recorded run was stopped from outside, so the rerun's trace must be watched. */
  get watches(): boolean {
    return this.#recorded !== undefined;
  }

  /**
   * True when the rerun's run needs {@link ReplayedStop.signal}: a stop is replayed, or the rerun
   * decides a deadline of its own. Otherwise the run is given no signal, and pays nothing for one.
   */
  get stops(): boolean {
    return this.#recorded !== undefined || this.#deadlineMs !== undefined;
  }

  /** The signal the rerun's run is given: it fires where the recorded run was stopped. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * Called as a recorded answer is handed out (the clock moved on to it): the error to fail that
   * call with when the replayed stop cuts it (the recorded call was cut by it, or the rerun's own
   * deadline passed before it), else undefined.
   */
  cut(error: { readonly type: string; readonly message: string } | undefined): Error | undefined {
    if (!this.#armed) return undefined;
    const recorded = this.#recorded;
    const wasCut =
      recorded !== undefined &&
      error !== undefined &&
      error.type === recorded.error.type &&
      error.message === recorded.error.message;
    if (wasCut && (recorded.reason === 'aborted' || this.#deadlineMs === undefined))
      return this.#fire('recorded');
    if (this.#deadlineMs !== undefined && this.#clock.now() > this.#deadlineMs)
      return this.#fire('deadline');
    if (wasCut)
      return new Error(
        `Rerun: the recording has no answer for this call: the recorded run's deadline (timeoutMs ${this.#recordedTimeoutMs ?? '?'}) cut it, and today's timeoutMs (${this.#timeoutMs ?? 'none'}) lets it go on.`,
      );
    return undefined;
  }

  /**
   * Called when the rerun asks for an answer the recording does not have: a run the outside world
   * stopped is stopped there (it asked for nothing more), else undefined.
   */
  beyond(): Error | undefined {
    return this.#armed && this.#recorded?.reason === 'aborted' ? this.#fire('recorded') : undefined;
  }

  /**
   * Fires the stop (once): the rerun's signal aborts as the recorded run's did (`recorded`), or
   * as the rerun's own deadline makes it (`deadline`).
   */
  #fire(which: 'recorded' | 'deadline'): RunAbortedError {
    if (!this.#controller.signal.aborted) this.#controller.abort(this.#reason(which));
    return new RunAbortedError({ reason: this.#controller.signal.reason });
  }

  #reason(which: 'recorded' | 'deadline'): unknown {
    const recorded = this.#recorded;
    if (which === 'deadline' || recorded?.reason === 'timeout') {
      const timeoutMs = which === 'deadline' ? this.#timeoutMs : recorded?.timeoutMs;
      return new RunTimeoutError({ timeoutMs: timeoutMs ?? 0 });
    }
    // The recorded reason, in the words the recorded run gave it.
    const said = /^Run aborted: (.*)\.$/s.exec(recorded?.error.message ?? '')?.[1];
    return said === undefined || said === 'the AbortSignal passed to the run fired'
      ? undefined
      : said;
  }
}

function recordedStop(run: readonly TraceEvent[]): RecordedStop | undefined {
  const end = run.findLast((event): event is TraceEventOf<'run_end'> => event.event === 'run_end');
  if (end?.error === undefined) return undefined;
  if (end.stop_reason !== 'aborted' && end.stop_reason !== 'timeout') return undefined;
  const { error } = end;
  return {
    reason: end.stop_reason,
    error,
    atMs: Date.parse(end.time),
    // Recorded before run_end said its limit: the deadline's words say it.
    timeoutMs:
      end.limit?.name === 'timeoutMs'
        ? end.limit.value
        : Number(/^Run timed out after (\d+) ms/.exec(error.message)?.[1] ?? Number.NaN) ||
          undefined,
    after: lastBefore(run, end, error),
  };
}

/** The last event of `run` before the stop `error` reached it: the last that does not carry it. */
function lastBefore(
  run: readonly TraceEvent[],
  end: TraceEventOf<'run_end'>,
  error: { readonly type: string; readonly message: string },
): RecordedStop['after'] {
  const carries = (event: TraceEvent): boolean => {
    const said =
      'error' in event ? (event.error as { type?: unknown; message?: unknown }) : undefined;
    return said?.type === error.type && said.message === error.message;
  };
  const last = run.findLast(event => event !== end && !carries(event)) ?? end;
  const nth = run.filter(
    event => event.event === last.event && event.agent === last.agent && event.seq <= last.seq,
  ).length;
  return { kind: last.event, agent: last.agent, nth };
}
