import type { ResumeLedger } from './resume-ledger.js';
import type { TraceEvent } from '../protocol/trace-event.js';
import type { Evaluation } from '../protocol/evaluation.js';

/**
 * The version of the sink contract this release speaks. A sink may say which one it is written
 * for (`version`), so that a later contract can be added beside this one and a sink written for
 * another is refused with a clear error, not handed events it does not expect.
 */
export const traceSinkVersion = 1;

/**
 * Where trace events go: a JSONL file, memory, an OTLP exporter. A run calls `write` for every
 * event in seq order and awaits `flush` before it returns.
 */
export interface TraceSink {
  /**
   * The sink contract it is written for: {@link traceSinkVersion}. Absent, the sink is taken as
   * written for version 1, the contract before versions were given.
   */
  readonly version?: typeof traceSinkVersion;
  /**
   * Takes one event. Synchronous so that tracing never slows the loop down; a sink buffers and
   * writes in the background. A throw is caught, counted in `result.traceErrors` and never ends
   * the run.
   */
  write(event: TraceEvent): void;
  /** Resolves when every event written so far is stored. Called at the end of each run. */
  flush(): Promise<void>;
  /**
   * Called just before a run's `run_end` is written: a sink that exports elsewhere (OTLP) sends
   * what it holds, within its own time bound, and reports what it lost so far. The counts go into
   * `run_end.export`.
   */
  beforeSeal?(runId: string): Promise<SinkHealth | undefined>;
  /**
   * Set on a sink that follows spans as they happen, in the application's OpenTelemetry setup:
   * it is told of each span when it starts and ends (not in trace order, and before `write`),
   * may give the run its trace id, and runs tools inside their span's context.
   */
  readonly live?: LiveSpans;
  /**
   * False for a sink that only follows spans live and needs no written events: a run whose other
   * sinks do not write either builds no events at all. @defaultValue true
   */
  readonly writesEvents?: boolean;
  /**
   * Set on a sink that records which paused states were resumed (a JSONL file's folder beside it,
   * memory): a resume whose run writes here claims its state in it, so the state goes on once.
   */
  readonly resumeLedger?: ResumeLedger;
  /**
   * Takes the scores of a run judged after it ended (an eval's): a sink that exports sends each as
   * an evaluation event on the span it judges. Never throws; a sink that cannot send says so in
   * its own counts.
   */
  evaluated?(evaluations: readonly Evaluation[]): void;
}

/**
 * What a sink that follows spans live is told. Its events are the trace's events as they are
 * made, their fields redacted, with `seq` -1: the seq is given when the event is written, and a
 * parallel call's events are written later, in call order.
 */
export interface LiveSpans {
  /**
   * A run starts (before its `run_start`): the trace id it should use, so that its JSONL trace and
   * the backend's join, and whether the sink follows its spans.
   */
  runStarting?(run: { readonly runId: string; readonly name: string }): LiveRun | undefined;
  /** A span starts: its start event. */
  spanStarted(event: TraceEvent): void;
  /** A span ends: its end event. */
  spanEnded(event: TraceEvent): void;
  /** An event under a span that is not a span of its own (a retry, a plan, …). */
  pointEvent(event: TraceEvent): void;
  /**
   * Runs `work` inside the span's context: what it calls (HTTP, databases) nests under the span.
   * For a run that is not followed, inside the run's own context.
   */
  within<T>(span: LiveSpanAt, work: () => T): T;
  /**
   * The trace context of the span as headers (W3C `traceparent`, …), for calls that carry it
   * themselves (an MCP request's `_meta`); undefined to leave it to the trace's own ids.
   */
  traceHeaders?(span: LiveSpanAt): Readonly<Record<string, string>> | undefined;
}

/** A span a live sink is asked about: its run, its id, and how the sink took the run. */
export interface LiveSpanAt {
  readonly runId: string;
  readonly spanId: string;
  readonly run: LiveRun | undefined;
}

/** How a live sink takes a run that starts. */
export interface LiveRun {
  /** The trace id the run should use (the application's trace), if any. */
  readonly traceId?: string;
  /**
   * False when the sink records nothing of the run (its sampler dropped it): the run then tells
   * it of no span, and only asks it for the context tools run in.
   */
  readonly follow: boolean;
  /** The sink's own handle on the run (its context), given back with each `within`. */
  readonly handle?: unknown;
}

/** What an exporting sink lost: spans dropped (queue full, flush timed out) and spans it failed to send. */
export interface SinkHealth {
  readonly dropped: number;
  readonly failed: number;
  /** Spans sent but not yet confirmed when the sink's flush time ran out. */
  readonly pending?: number;
}

/** True when `value` looks like a {@link TraceSink}. */
export function isTraceSink(value: unknown): value is TraceSink {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<TraceSink>;
  return typeof candidate.write === 'function' && typeof candidate.flush === 'function';
}
