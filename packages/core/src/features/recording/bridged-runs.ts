import type { TraceSink } from '../../kernel/trace/trace-sink.js';
import { RunTracer, type OpenSpan } from '../../kernel/trace/run-tracer.js';
import { assertRelease } from '../../kernel/errors/assert-release.js';
import { defined } from '../../kernel/util/defined.js';
import { systemClock, type Clock } from '../../kernel/util/clock.js';
import { randomIds, type IdGenerator } from '../../kernel/util/ids.js';
import { PriceTable, type ModelPrice } from '../cost/prices.js';
import { Redactor, type RedactionOptions } from '../redaction/redactor.js';

/** What every bridge's recorder takes: where its runs go and how they are written. */
export interface BridgeRecordingOptions {
  /** Where each run's events go: one sink or several (`jsonlSink`, `memorySink`, `otlpSink`). */
  readonly trace: TraceSink | readonly TraceSink[];
  /** The session every run's events carry. @defaultValue what the framework names, else each run's id */
  readonly session?: string;
  /**
   * The release of the application making the runs (a git commit, a tag, a build id), written on
   * every `run_start`, as `run()`'s `release` option. @defaultValue none
   */
  readonly release?: string;
  /** Secrets replaced before any sink sees them; `false` turns it off. @defaultValue the known shapes */
  readonly redaction?: RedactionOptions | false;
  /**
   * Prices of models, by `<provider>:<model>` (e.g. `openai:gpt-4o`), over the ones agent-trace
   * knows: each model call's cost is recorded; a model with no price has an unknown cost.
   */
  readonly prices?: Readonly<Record<string, ModelPrice>>;
  /** @defaultValue the system clock (or the framework's own times, where it gives them) */
  readonly clock?: Clock;
  /** @defaultValue random ids */
  readonly ids?: IdGenerator;
}

/**
 * The runs a bridge's recorder writes: each run's tracer, made the same way by every bridge, open
 * until the run ends, then flushed; `flush` waits for all of them.
 */
export class BridgedRuns {
  readonly prices: PriceTable;
  readonly #sinks: readonly TraceSink[];
  readonly #open = new Set<RunTracer>();
  readonly #flushes = new Set<Promise<void>>();

  constructor(
    private readonly options: BridgeRecordingOptions,
    /** The clock when the options give none. @defaultValue the system clock */
    private readonly clock: Clock = systemClock,
  ) {
    this.#sinks = Array.isArray(options.trace)
      ? (options.trace as readonly TraceSink[])
      : [options.trace as TraceSink];
    this.prices = new PriceTable(options.prices);
    assertRelease(options.release);
  }

  /** A new run's tracer, named after its entry agent; its session is the options', else `session`. */
  open(name: string, session?: string): RunTracer {
    const ids = this.options.ids ?? randomIds;
    const runId = ids.runId();
    const tracer = new RunTracer({
      sinks: this.#sinks,
      runId,
      session: this.options.session ?? session ?? runId,
      clock: this.options.clock ?? this.clock,
      ids,
      name,
      ...(this.options.redaction === false
        ? {}
        : { redaction: new Redactor(this.options.redaction) }),
    });
    this.#open.add(tracer);
    return tracer;
  }

  /** Starts a run's span on its tracer: `run_start` with its input and the options' `release`. */
  startRun(tracer: RunTracer, name: string, input: string): OpenSpan<'run_start'> {
    return tracer.start('run_start', name, null, {
      input,
      ...defined('release', this.options.release),
    });
  }

  /** The run has ended: its events are flushed to the sinks. */
  closed(tracer: RunTracer): void {
    if (!this.#open.delete(tracer)) return;
    const flushed = tracer.flush();
    this.#flushes.add(flushed);
    void flushed.finally(() => this.#flushes.delete(flushed));
  }

  /** Waits until every sink has stored what the runs gave it. */
  async flush(): Promise<void> {
    await Promise.all([...this.#flushes, ...[...this.#open].map(tracer => tracer.flush())]);
  }
}
