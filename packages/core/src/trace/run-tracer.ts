import type { Clock } from '../util/clock.js';
import type { IdGenerator } from '../util/ids.js';
import {
  spanEndFor,
  TRACE_SCHEMA_VERSION,
  type SpanStartName,
  type TraceEvent,
  type TraceEventName,
  type TraceEventOf,
} from './trace-event.js';
import type { TraceSink } from './trace-sink.js';

type EnvelopeKey =
  | 'v'
  | 'seq'
  | 'time'
  | 'run'
  | 'session'
  | 'trace_id'
  | 'span_id'
  | 'parent_span_id'
  | 'agent'
  | 'event';

/** The fields of an event beyond its envelope. */
export type TraceEventFields<Name extends TraceEventName> = Omit<TraceEventOf<Name>, EnvelopeKey>;

/** A span that has started and not yet ended. */
export interface OpenSpan<Name extends SpanStartName = SpanStartName> {
  readonly name: Name;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly agent: string;
  readonly startMs: number;
}

/** Per-run counts kept while events are emitted, for the `run_end` seal. */
export interface TraceCounts {
  agents: number;
  llm_calls: number;
  tool_calls: number;
  tool_errors: number;
}

/**
 * Emits the trace events of one run: stamps the envelope (seq, time, ids), pairs starts with
 * ends, keeps the counts for the `run_end` seal and shields the run from failing sinks.
 */
export class RunTracer {
  readonly runId: string;
  readonly session: string;
  readonly traceId: string;
  readonly counts: TraceCounts = { agents: 0, llm_calls: 0, tool_calls: 0, tool_errors: 0 };
  /** Errors thrown by sinks; the run goes on without them. */
  readonly sinkErrors: Error[] = [];
  readonly #sinks: readonly TraceSink[];
  readonly #clock: Clock;
  readonly #ids: IdGenerator;
  readonly #open = new Set<OpenSpan>();
  readonly #failedSinks = new Set<TraceSink>();
  #seq = 0;
  #lastTimeMs = Number.NaN;
  #lastTime = '';

  constructor(options: {
    sinks: readonly TraceSink[];
    runId: string;
    session: string;
    clock: Clock;
    ids: IdGenerator;
  }) {
    this.#sinks = options.sinks;
    this.#clock = options.clock;
    this.#ids = options.ids;
    this.runId = options.runId;
    this.session = options.session;
    this.traceId = options.ids.traceId();
  }

  /** The seq the next event will get. */
  get nextSeq(): number {
    return this.#seq;
  }

  /** Reads the run's clock. */
  now(): number {
    return this.#clock.now();
  }

  /** Opens a span with its start event. */
  start<Name extends SpanStartName>(
    name: Name,
    agent: string,
    parent: OpenSpan | null,
    fields: TraceEventFields<Name>,
  ): OpenSpan<Name> {
    const startMs = this.#clock.now();
    const span: OpenSpan<Name> = {
      name,
      spanId: this.#ids.spanId(),
      parentSpanId: parent?.spanId ?? null,
      agent,
      startMs,
    };
    this.#open.add(span);
    if (name === 'agent_start') this.counts.agents++;
    else if (name === 'llm_start') this.counts.llm_calls++;
    else if (name === 'tool_start') this.counts.tool_calls++;
    this.#emit(name, span, startMs, fields);
    return span;
  }

  /** Closes a span with its end event; `duration_ms` is filled in. */
  end<Name extends SpanStartName>(
    span: OpenSpan<Name>,
    fields: Omit<TraceEventFields<(typeof spanEndFor)[Name]>, 'duration_ms'>,
    endMs: number = this.#clock.now(),
  ): void {
    if (!this.#open.delete(span)) return;
    const name = spanEndFor[span.name];
    if (name === 'tool_end' && (fields as { error?: unknown }).error !== undefined) {
      this.counts.tool_errors++;
    }
    this.#emit(name, span, endMs, {
      ...fields,
      duration_ms: Math.max(0, endMs - span.startMs),
    });
  }

  /** Emits an event that is not a span of its own (`guardrail`, `retry`) under `parent`. */
  point<Name extends 'guardrail' | 'retry'>(
    name: Name,
    parent: OpenSpan,
    fields: TraceEventFields<Name>,
  ): void {
    const span = { spanId: this.#ids.spanId(), parentSpanId: parent.spanId, agent: parent.agent };
    this.#emit(name, span, this.#clock.now(), fields);
  }

  /** True while `span` has not been ended. */
  isOpen(span: OpenSpan): boolean {
    return this.#open.has(span);
  }

  /** Spans still open, most recently opened last. */
  openSpans(): OpenSpan[] {
    return [...this.#open];
  }

  /** Waits for every sink to store what it was given. Sink failures are recorded, not thrown. */
  async flush(): Promise<void> {
    await Promise.all(
      this.#sinks.map(async sink => {
        if (this.#failedSinks.has(sink)) return;
        try {
          await sink.flush();
        } catch (error) {
          this.#fail(sink, error);
        }
      }),
    );
  }

  #emit(
    name: TraceEventName,
    span: Pick<OpenSpan, 'spanId' | 'parentSpanId' | 'agent'>,
    timeMs: number,
    fields: object,
  ): void {
    const event = {
      v: TRACE_SCHEMA_VERSION,
      seq: this.#seq++,
      time: this.#isoTime(timeMs),
      run: this.runId,
      session: this.session,
      trace_id: this.traceId,
      span_id: span.spanId,
      parent_span_id: span.parentSpanId,
      agent: span.agent,
      event: name,
      ...fields,
    } as TraceEvent;
    for (const sink of this.#sinks) {
      if (this.#failedSinks.has(sink)) continue;
      try {
        sink.write(event);
      } catch (error) {
        this.#fail(sink, error);
      }
    }
  }

  /** ISO-8601 of `timeMs`, reused while the clock stays within the same millisecond. */
  #isoTime(timeMs: number): string {
    if (timeMs !== this.#lastTimeMs) {
      this.#lastTimeMs = timeMs;
      this.#lastTime = new Date(timeMs).toISOString();
    }
    return this.#lastTime;
  }

  #fail(sink: TraceSink, error: unknown): void {
    this.#failedSinks.add(sink);
    this.sinkErrors.push(error instanceof Error ? error : new Error(String(error)));
  }
}
