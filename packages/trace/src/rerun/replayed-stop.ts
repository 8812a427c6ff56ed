import {
  RunAbortedError,
  RunTimeoutError,
  type TraceEvent,
  type TraceSink,
} from '@agent-trace/core';
import { nextTask } from '@agent-trace/core/util';
import { followingSink } from './following-sink.js';
import { madeOf } from './made-order.js';
import { carries, cutBy, eventKey, recordedStop, type RecordedStop } from './recorded-stop.js';
import type { ReplayClock } from './replay-clock.js';

/**
 * A stop from outside a recorded run, replayed: the caller's `AbortSignal` (or a stream's reader
 * that stopped reading) fires again where it reached the recorded run: once the rerun has made
 * what the recorded run made before it, in every part of the run (answers that came before the
 * stop though written after it included), or once nothing else can go on while a call waits for
 * it. A call it cut, or one past the end of the recording, waits for it, as it did. So does the
 * run's deadline when the rerun's `timeoutMs` is the recorded one. A rerun whose `timeoutMs`
 * differs decides again on the recording's clock: its deadline passes when a recorded answer (or
 * a wait) goes past it, and a call the recorded deadline cut goes on, which the recording cannot
 * answer (a divergence, in words).
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

  /** How many events of each kind and agent the rerun has made, while the stop waits for them. */
  readonly #written = new Map<string, number>();
  /**
   * How many kinds of event the rerun has not yet made as many of as the recording before the stop,
   * and answers that came before it it has not yet handed out.
   */
  #unmet: number;
  /** The answers (by span) that came before the stop though written after it, still to hand out. */
  readonly #toHand: Set<string>;

  /** The recorded run's deadline, whether or not it stopped the run. */
  readonly #recordedTimeoutMs: number | undefined;

  /**
   * @param run - the recorded run's events
   * @param startMs - when it started, on the recording's clock
   * @param clock - the rerun's clock
   * @param sideBySide - the recorded answers that came side by side (see `concurrentAnswers`)
   */
  constructor(
    run: readonly TraceEvent[],
    startMs: number,
    clock: ReplayClock,
    sideBySide: ReadonlySet<string>,
  ) {
    this.#recorded = recordedStop(run, sideBySide);
    this.#unmet = (this.#recorded?.before.size ?? 0) + (this.#recorded?.cameBefore.size ?? 0);
    this.#toHand = new Set(this.#recorded?.cameBefore);
    this.#clock = clock;
    this.#startMs = startMs;
    const start = run.find(event => event.event === 'run_start');
    this.#recordedTimeoutMs =
      (start?.event === 'run_start' ? start.timeout_ms : undefined) ?? this.#recorded?.timeoutMs;
  }

  /**
   * A sink for the rerun's trace that follows its events as they are made (a workflow's steps are
   * written later, in the workflow's order): it stops the rerun once it has made what the
   * recorded run made before its stop (when the stop is replayed there, not decided again).
   */
  readonly sink: TraceSink = followingSink(event => this.#made(event));

  /** Counts an event the rerun made; the stop fires once all the recorded ones before it are. */
  #made(event: TraceEvent): void {
    const before = this.#recorded?.before;
    if (!this.#armed || before === undefined || this.#unmet === 0) return;
    // A recorded deadline the rerun's own replaces is not replayed: it is decided again.
    if (this.#recorded?.reason === 'timeout' && this.#deadlineMs !== undefined) return;
    const key = eventKey(event);
    const count = (this.#written.get(key) ?? 0) + 1;
    this.#written.set(key, count);
    if (count === before.get(key)) this.#unmet--;
    if (this.#unmet === 0) this.#fire('recorded');
  }

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
    // A wait that would end after the rerun's own deadline is cut by it. (A recorded stop that cut
    // a wait fires as the wait begins: everything before it is written by then, whatever the
    // wait's length, which a backoff's jitter decides again.)
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
   * call with when the replayed stop cuts it, else undefined. A call the recorded stop cut waits
   * for the stop, as it did (see {@link ReplayedStop}); one the rerun's own deadline passed fails.
   */
  cut(end: TraceEvent): Promise<Error> | undefined {
    if (!this.#armed) return undefined;
    this.#handed(end);
    const error = 'error' in end ? end.error : undefined;
    const recorded = this.#recorded;
    const wasCut = recorded !== undefined && cutBy(error, recorded.error);
    if (wasCut && (recorded.reason === 'aborted' || this.#deadlineMs === undefined))
      return this.stopped();
    if (this.#deadlineMs !== undefined && this.#clock.now() > this.#deadlineMs)
      return Promise.resolve(this.#fire('deadline'));
    if (wasCut)
      return Promise.resolve(
        new Error(
          `Rerun: the recording has no answer for this call: the recorded run's deadline (timeoutMs ${this.#recordedTimeoutMs ?? '?'}) cut it, and today's timeoutMs (${this.#timeoutMs ?? 'none'}) lets it go on.`,
        ),
      );
    return undefined;
  }

  /**
   * Where among the recorded run's events an answer is handed out (see `Recording.inTime`): where
   * it was made, or, for one that came before the stop though written after it, just before the
   * stop's place, in the order they were made.
   */
  handOrder(end: TraceEvent): number {
    const made = madeOf(end);
    const at = this.#recorded?.madeAt;
    if (at === undefined || !this.#recorded?.cameBefore.has(end.span_id)) return made;
    return at - 0.5 + 0.4 * (1 - 1 / (made - at + 1));
  }

  /**
   * A recorded answer was handed out. One that came before the stop though written after it is
   * among what the stop waits for; the last of these fires it once the answer has reached its
   * call, in a task of its own (as the recorded answer had when the stop came).
   */
  #handed(end: TraceEvent): void {
    if (!this.#toHand.delete(end.span_id)) return;
    if (this.#recorded?.reason === 'timeout' && this.#deadlineMs !== undefined) return;
    this.#unmet--;
    if (this.#unmet === 0) void nextTask().then(() => this.#fire('recorded'));
  }

  /**
   * True when the recorded run's stop ended `event`'s part (it carries the stop's error) and the
   * rerun replays that stop where it came (not a deadline of its own, decided again).
   */
  ended(event: TraceEvent): boolean {
    const recorded = this.#recorded;
    if (!this.#armed || recorded === undefined || !carries(event, recorded.error)) return false;
    return recorded.reason === 'aborted' || this.#deadlineMs === undefined;
  }

  /**
   * Called when the rerun asks for an answer the recording does not have: a run the outside world
   * stopped is stopped there (the recorded run was stopped before it asked), else undefined. The
   * call waits for the stop, so a part of the run that got ahead does not stop the others early.
   */
  beyond(): Promise<RunAbortedError> | undefined {
    if (!this.#armed || this.#recorded?.reason !== 'aborted') return undefined;
    return this.stopped();
  }

  /**
   * The replayed stop, once it has fired: where the recording says (see {@link ReplayedStop}), or
   * when nothing else can go on while this waits for it. A step the recorded run's stop kept a
   * part from deciding waits for it (see {@link ReplayedStop.ended}), so the part stops where it
   * did.
   */
  stopped(): Promise<RunAbortedError> {
    const { signal } = this.#controller;
    if (signal.aborted) return Promise.resolve(new RunAbortedError({ reason: signal.reason }));
    // One wait however many calls wait for the stop: one listener on the signal, one on the clock.
    this.#waited ??= new Promise<RunAbortedError>(resolve => {
      signal.addEventListener(
        'abort',
        () => resolve(new RunAbortedError({ reason: signal.reason })),
        {
          once: true,
        },
      );
      void this.#clock.idle().then(() => this.#fire('recorded'));
    });
    return this.#waited;
  }

  /** The wait for the stop, shared by every call that waits for it. */
  #waited: Promise<RunAbortedError> | undefined;

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
