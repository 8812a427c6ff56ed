import { joinRun } from './join-run.js';
import { MadeOrder, type MadeStamp } from './made-order.js';
import type { Redaction } from './redaction.js';
import type { Clock } from '../util/clock.js';
import { IsoTimes } from '../util/iso-times.js';
import type { IdGenerator } from '../util/ids.js';
import {
  isSpanStart,
  spanEndFor,
  TRACE_SCHEMA_VERSION,
  type SpanStartName,
  type TraceEvent,
  type TraceEventName,
  type TraceEventOf,
} from '../protocol/trace-event.js';
import type { LiveRun, LiveSpanAt, LiveSpans, SinkHealth, TraceSink } from './trace-sink.js';
import { TracedSpan } from './traced-span.js';

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

/** The events that are not spans of their own: points under a span. */
export type PointEventName =
  | 'guardrail'
  | 'retry'
  | 'malformed_answer'
  | 'approval_requested'
  | 'approval_resolved'
  | 'rate_limit_wait'
  | 'feature'
  | 'transform'
  | 'plan';

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

/** An event waiting for its seq: made, not yet delivered. */
interface PendingEvent extends MadeStamp {
  readonly name: TraceEventName;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly agent: string;
  readonly timeMs: number;
  /** Redacted when the event is made, when anything will read it. */
  fields: object;
  /** Set on end events: `endMs − startMs`. */
  readonly durationMs?: number;
}

/** What every view of one run's tracer shares. */
interface TracerCore {
  readonly sinks: readonly TraceSink[];
  /** The sinks that take written events. */
  readonly writers: readonly TraceSink[];
  /** The sinks that follow this run's spans live, with their listeners. */
  readonly live: readonly (readonly [TraceSink, LiveSpans])[];
  /** The live sinks tools run inside the contexts of (followed or not), with how they took the run. */
  readonly contexts: readonly (readonly [LiveSpans, LiveRun | undefined])[];
  readonly redaction: Redaction | undefined;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** No sink reads the run's events: their times are not read from the clock. */
  readonly silent: boolean;
  readonly failedSinks: Set<TraceSink>;
  readonly sinkErrors: Error[];
  readonly counts: TraceCounts;
  seq: number;
  /** The order the run makes its events in (see {@link MadeOrder}). */
  readonly order: MadeOrder;
  /** The events' times as text. */
  readonly times: IsoTimes;
}

/**
 * Emits the trace events of one run: stamps the envelope (seq, time, ids), pairs starts with
 * ends, keeps the counts for the `run_end` seal and shields the run from failing sinks.
 *
 * A view made by {@link RunTracer.capture} holds its events back until {@link RunTracer.commit}:
 * agents delegated to in parallel write to their own view, and the views are committed in call
 * order, so the trace does not depend on which one finished first.
 */
export class RunTracer {
  readonly runId: string;
  readonly session: string;
  readonly traceId: string;
  readonly #core: TracerCore;
  /** Set on a capturing view: where its events wait. */
  readonly #held: PendingEvent[] | undefined;
  /** Where a capturing view delivers when committed. */
  readonly #parent: RunTracer | undefined;
  /** Set once a capturing view was committed (it no longer counts as a part side by side). */
  #committed = false;

  constructor(
    options: {
      sinks: readonly TraceSink[];
      runId: string;
      session: string;
      clock: Clock;
      ids: IdGenerator;
      /** The run's entry agent or workflow: what a live sink names the run's span. */
      name?: string;
      /** Replaces secrets in every event before the sinks see it. */
      redaction?: Redaction;
      /** A run that goes on from a pause: its trace id, the seq it stopped at, its counts. */
      continues?: { readonly traceId: string; readonly seq: number; readonly counts: TraceCounts };
    },
    /** @internal a capturing view of `parent` */
    parent?: RunTracer,
  ) {
    if (parent !== undefined) {
      this.runId = parent.runId;
      this.session = parent.session;
      this.traceId = parent.traceId;
      this.#core = parent.#core;
      this.#held = [];
      this.#parent = parent;
      return;
    }
    this.runId = options.runId;
    this.session = options.session;
    const joined = joinRun(options.sinks, { runId: options.runId, name: options.name ?? '' });
    this.traceId = options.continues?.traceId ?? joined.traceId ?? options.ids.traceId();
    const writers = options.sinks.filter(sink => sink.writesEvents !== false);
    this.#core = {
      sinks: options.sinks,
      writers,
      live: joined.live,
      contexts: joined.contexts,
      redaction: options.redaction,
      clock: options.clock,
      ids: options.ids,
      silent: writers.length === 0 && joined.live.length === 0,
      failedSinks: new Set(),
      sinkErrors: [],
      counts: {
        ...(options.continues?.counts ?? {
          agents: 0,
          llm_calls: 0,
          tool_calls: 0,
          tool_errors: 0,
        }),
      },
      seq: options.continues?.seq ?? 0,
      order: new MadeOrder(options.continues?.seq ?? 0),
      times: new IsoTimes(),
    };
    this.#held = undefined;
    this.#parent = undefined;
  }

  /**
   * A view of this tracer whose events wait for {@link RunTracer.commit}; this tracer itself when
   * it writes no events (nothing to order then, and the seal's count is the same).
   */
  capture(): RunTracer {
    if (!this.recording) return this;
    this.#core.order.views(1);
    return new RunTracer(
      {
        sinks: [],
        runId: this.runId,
        session: this.session,
        clock: this.#core.clock,
        ids: this.#core.ids,
      },
      this,
    );
  }

  /** Delivers a capturing view's events to the tracer it came from, in the order they were made. */
  commit(): void {
    const held = this.#held;
    const parent = this.#parent;
    if (held === undefined || parent === undefined) return;
    if (!this.#committed) {
      this.#committed = true;
      this.#core.order.views(-1);
    }
    for (const pending of held.splice(0)) parent.#deliver(pending);
  }

  /**
   * True while parts of the run go on side by side, each writing to a view of its own: an answer
   * from outside then goes on in a task of its own (see `nextTask`), so parts take turns at the
   * answers, as they do with a provider's, and a rerun, which hands answers out one at a time,
   * takes the same turns.
   */
  get sideBySide(): boolean {
    return this.#core.order.sideBySide;
  }

  /** How many events the run has made so far, held ones included: its next event's place. */
  get made(): number {
    return this.#core.order.count;
  }

  /** How many secrets were redacted so far. */
  get redactions(): number {
    return this.#core.redaction?.count ?? 0;
  }

  /** Per-run counts for the seal. */
  get counts(): TraceCounts {
    return this.#core.counts;
  }

  /** Errors thrown by sinks; the run goes on without them. */
  get sinkErrors(): Error[] {
    return this.#core.sinkErrors;
  }

  /** True when the run has sinks: without, events are counted but neither built nor written. */
  get recording(): boolean {
    return this.#core.writers.length > 0;
  }

  /** The seq the next delivered event will get. */
  get nextSeq(): number {
    return this.#core.seq;
  }

  /** Reads the run's clock. */
  now(): number {
    return this.#core.clock.now();
  }

  /**
   * The trace context of `span` as headers, for calls that carry it to another process (an MCP
   * request): a live sink's (the application's OpenTelemetry), else the W3C `traceparent` of the
   * trace's own ids, so the other side can join this trace.
   */
  traceHeaders(span: OpenSpan): Readonly<Record<string, string>> {
    for (const [listener, run] of this.#core.contexts) {
      const headers = listener.traceHeaders?.(this.#at(span, run));
      if (headers !== undefined && Object.keys(headers).length > 0) return headers;
    }
    return { traceparent: `00-${this.traceId}-${span.spanId}-01` };
  }

  /**
   * Runs `work` inside `span`'s context in the sinks that follow spans live (the application's
   * OpenTelemetry), so the calls it makes nest under the span; without such sinks, just runs it.
   */
  within<T>(span: OpenSpan, work: () => T): T {
    const { contexts } = this.#core;
    if (contexts.length === 0) return work();
    let wrapped = work;
    for (const [listener, run] of contexts) {
      const inner = wrapped;
      wrapped = () => listener.within(this.#at(span, run), inner);
    }
    return wrapped();
  }

  #at(span: OpenSpan, run: LiveRun | undefined): LiveSpanAt {
    return { runId: this.runId, spanId: span.spanId, run };
  }

  /** Opens a span with its start event. */
  start<Name extends SpanStartName>(
    name: Name,
    agent: string,
    parent: OpenSpan | null,
    fields: TraceEventFields<Name>,
  ): OpenSpan<Name> {
    const core = this.#core;
    const startMs = this.#eventTime();
    const span = new TracedSpan(
      name,
      core.ids.spanId(),
      parent?.spanId ?? null,
      agent,
      startMs,
      core,
    );
    if (name === 'agent_start') core.counts.agents++;
    else if (name === 'llm_start') core.counts.llm_calls++;
    else if (name === 'tool_start') core.counts.tool_calls++;
    this.#emit({
      name,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      agent,
      timeMs: startMs,
      fields,
    });
    return span;
  }

  /** Closes a span with its end event; `duration_ms` is filled in. */
  end<Name extends SpanStartName>(
    span: OpenSpan<Name>,
    fields: Omit<TraceEventFields<(typeof spanEndFor)[Name]>, 'duration_ms'>,
    endMs?: number,
  ): void {
    const core = this.#core;
    if (!TracedSpan.close(span, core)) return;
    const at = endMs ?? this.#eventTime();
    const name = spanEndFor[span.name];
    if (name === 'tool_end' && (fields as { error?: unknown }).error !== undefined) {
      this.#core.counts.tool_errors++;
    }
    this.#emit({
      name,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      agent: span.agent,
      timeMs: at,
      fields,
      durationMs: Math.max(0, at - span.startMs),
    });
  }

  /** Emits an event that is not a span of its own (`guardrail`, `retry`, …) under `parent`. */
  point<Name extends PointEventName>(
    name: Name,
    parent: OpenSpan,
    fields: TraceEventFields<Name>,
  ): void {
    this.#emit({
      name,
      spanId: this.#core.ids.spanId(),
      parentSpanId: parent.spanId,
      agent: parent.agent,
      timeMs: this.#eventTime(),
      fields,
    });
  }

  /** The time of an event made now; 0 when no sink reads the run's events (the clock unread). */
  #eventTime(): number {
    const core = this.#core;
    return core.silent ? 0 : core.clock.now();
  }

  /** True while `span` has not been ended. */
  isOpen(span: OpenSpan): boolean {
    return TracedSpan.isOpen(span, this.#core);
  }

  /**
   * Asks the sinks that export elsewhere to send what they hold and report their losses, summed;
   * undefined when no sink reports. Never throws.
   */
  async sinkHealth(): Promise<SinkHealth | undefined> {
    const core = this.#core;
    let total: { dropped: number; failed: number; pending: number } | undefined;
    await Promise.all(
      core.sinks.map(async sink => {
        if (sink.beforeSeal === undefined || core.failedSinks.has(sink)) return;
        try {
          const health = await sink.beforeSeal(this.runId);
          if (health === undefined) return;
          total ??= { dropped: 0, failed: 0, pending: 0 };
          total.dropped += health.dropped;
          total.failed += health.failed;
          total.pending += health.pending ?? 0;
        } catch (error) {
          this.#fail(sink, error);
        }
      }),
    );
    return total;
  }

  /** Waits for every sink to store what it was given. Sink failures are recorded, not thrown. */
  async flush(): Promise<void> {
    const core = this.#core;
    await Promise.all(
      core.sinks.map(async sink => {
        if (core.failedSinks.has(sink)) return;
        try {
          await sink.flush();
        } catch (error) {
          this.#fail(sink, error);
        }
      }),
    );
  }

  #emit(pending: PendingEvent): void {
    const core = this.#core;
    core.order.stamp(pending);
    if (core.redaction !== undefined && (core.writers.length > 0 || core.live.length > 0))
      pending.fields = core.redaction.value(pending.fields);
    if (core.live.length > 0) this.#tellLive(pending);
    if (this.#held !== undefined) this.#held.push(pending);
    else this.#deliver(pending);
  }

  /**
   * The turn of `agentSpan` decided a step (the features' checks before a model call, of its
   * answer, of a round of tool calls returned): the turn's next event records how many events the
   * run had made by then (`decided_made`) when others came between, so a rerun decides in the
   * same place among the parts that went on side by side.
   */
  decided(agentSpan: OpenSpan): void {
    if (this.recording) this.#core.order.decided(agentSpan.spanId);
  }

  /** Tells the live sinks of an event as it is made (its seq is not known yet: -1). */
  #tellLive(pending: PendingEvent): void {
    const core = this.#core;
    const event = this.#event(pending, -1);
    for (const [sink, listener] of core.live) {
      if (core.failedSinks.has(sink)) continue;
      try {
        if (isSpanStart(pending.name)) listener.spanStarted(event);
        else if (pending.durationMs !== undefined) listener.spanEnded(event);
        else listener.pointEvent(event);
      } catch (error) {
        this.#fail(sink, error);
      }
    }
  }

  /** The event as written: the envelope, then the fields, then `duration_ms` on an end. */
  #event(pending: PendingEvent, seq: number): TraceEvent {
    const event = {
      v: TRACE_SCHEMA_VERSION,
      seq,
      time: this.#core.times.text(pending.timeMs),
      run: this.runId,
      session: this.session,
      trace_id: this.traceId,
      span_id: pending.spanId,
      parent_span_id: pending.parentSpanId,
      agent: pending.agent,
      event: pending.name,
      ...pending.fields,
    } as TraceEvent & { duration_ms?: number; made?: number; decided_made?: number };
    // Parts that went on side by side are written part by part: the order they happened in.
    if (pending.made !== undefined && pending.made !== seq && seq >= 0) event.made = pending.made;
    if (pending.decidedMade !== undefined) event.decided_made = pending.decidedMade;
    if (pending.durationMs !== undefined) event.duration_ms = pending.durationMs; // last, as written
    return event;
  }

  #deliver(pending: PendingEvent): void {
    if (this.#held !== undefined) {
      this.#held.push(pending);
      return;
    }
    const core = this.#core;
    if (!this.recording) {
      core.seq++; // nothing to write: the seq still counts for the seal
      return;
    }
    const event = this.#event(pending, core.seq++);
    for (const sink of core.writers) {
      if (core.failedSinks.has(sink)) continue;
      try {
        sink.write(event);
      } catch (error) {
        this.#fail(sink, error);
      }
    }
  }

  #fail(sink: TraceSink, error: unknown): void {
    this.#core.failedSinks.add(sink);
    this.#core.sinkErrors.push(error instanceof Error ? error : new Error(String(error)));
  }
}
