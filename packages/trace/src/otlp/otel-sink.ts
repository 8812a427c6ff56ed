import {
  traceSinkVersion,
  type LiveRun,
  type LiveSpanAt,
  type LiveSpans,
  type TraceEvent,
  type TraceSink,
} from '@agent-trace/core';
import {
  context,
  metrics,
  propagation,
  trace,
  type Context,
  type Span,
  type MeterProvider,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { emptyResource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { contentCaptureFromEnvironment } from './content-capture.js';
import { GenAiMetrics, meterProviderRegistered } from './genai-metrics.js';
import { SpanBuilder, spanHead, workflowSpanHead } from './span-builder.js';
import { logs } from '@opentelemetry/api-logs';
import { emitEvaluations } from './evaluation-logs.js';
import { openInferenceFromEnvironment } from './open-inference.js';

/** Options of {@link otelSink}. */
export interface OtelSinkOptions {
  /**
   * The tracer provider to emit through. @defaultValue the global one, as `NodeSDK` (or
   * `trace.setGlobalTracerProvider`) registers it, looked up when each run starts
   */
  tracerProvider?: TracerProvider;
  /**
   * Record message content, tool arguments and results on spans (opt-in, as the conventions ask).
   * @defaultValue true when `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` is `true` or `SPAN_ONLY` / `SPAN_AND_EVENT`
   */
  captureContent?: boolean;
  /** The most characters of one content attribute; longer ones are cut with a marker. @defaultValue 65536 */
  maxAttributeLength?: number;
  /**
   * The meter provider the GenAI metrics go to (see {@link GenAiMetrics}); `false` records none.
   * @defaultValue the global one, looked up when each run starts
   */
  meterProvider?: MeterProvider | false;
  /**
   * Also write the OpenInference attributes (`openinference.span.kind`, `session.id`, the run's
   * `input.value` and `output.value`) that Arize Phoenix reads, beside the GenAI ones. The project
   * Phoenix files the spans under is the application's: `openinference.project.name` on the
   * resource it gives its SDK. @defaultValue true when `TRACE_OTLP_OPENINFERENCE` is `true`, else false
   */
  openInference?: boolean;
}

/** A live span and the context that makes it the active one. */
interface Live {
  readonly span: Span;
  readonly context: Context;
}

const scope = { name: '@agent-trace/trace', version: '0.1.0' };

/** True when a tracer provider other than the API's no-op one is registered globally. */
function globalProviderRegistered(): boolean {
  const provider = trace.getTracerProvider() as TracerProvider & {
    getDelegateTracer?: (name: string) => Tracer | undefined;
  };
  return provider.getDelegateTracer?.(scope.name) !== undefined;
}

/**
 * Emits a run's spans through the application's own OpenTelemetry setup (the global tracer
 * provider that `NodeSDK` registers, or the one given), so its samplers, processors and
 * exporters apply and the agent's spans join the application's traces:
 *
 * - the run's span is a child of the active context (a server's request span, say), and the
 *   run takes that trace's id, so the JSONL trace and the backend's join on `trace_id`;
 * - each tool runs inside its `execute_tool` span's context, so the HTTP and database calls the
 *   application's instrumentations record nest under it;
 * - spans follow the run as it goes (not the trace's order), with the GenAI conventions'
 *   names and attributes, the same as `otlpSink` and `agent-trace export` give.
 *
 * The GenAI metrics (`gen_ai.client.operation.duration`, `gen_ai.client.token.usage`) and
 * agent-trace's (`agent_trace.tool.duration`, `agent_trace.runs`) go to the application's meter
 * provider, sampled traces or not. With no provider registered (neither tracer nor meter) it is
 * off: the run makes nothing and pays nothing for it.
 *
 * @example
 * ```ts
 * new NodeSDK({ traceExporter: new OTLPTraceExporter() }).start(); // at the service's start
 * await run(desk, input, { trace: [jsonlSink('traces/desk.jsonl'), otelSink()] });
 * ```
 */
export function otelSink(options: OtelSinkOptions = {}): TraceSink {
  const live = new LiveSpanMapping(options);
  return {
    version: traceSinkVersion,
    write: () => undefined,
    flush: () => Promise.resolve(),
    writesEvents: false,
    // An eval's scores, through the application's logger provider (none registered: nothing).
    evaluated: evaluations => {
      try {
        emitEvaluations(logs.getLogger('@agent-trace/trace'), evaluations);
      } catch {
        // Export never fails what asked for it.
      }
    },
    get live(): LiveSpans | undefined {
      return live.tracing() || live.metrics() !== undefined ? live : undefined;
    },
  };
}

/** How a live run is followed: its spans (when sampled), its metrics (when a meter is there). */
interface FollowedRun {
  readonly spans: boolean;
  readonly metrics: GenAiMetrics | undefined;
}

/** Turns a run's live events into spans of the application's tracer, and into metrics. */
class LiveSpanMapping implements LiveSpans {
  readonly #options: OtelSinkOptions;
  readonly #builder: SpanBuilder;
  readonly #spans = new Map<string, Live>();
  /** The runs' spans, started before their `run_start` so the run can take their trace id. */
  readonly #roots = new Map<string, Live>();
  readonly #runs = new Map<string, FollowedRun>();
  readonly #meters = new WeakMap<MeterProvider, GenAiMetrics>();

  constructor(options: OtelSinkOptions) {
    this.#options = options;
    this.#builder = new SpanBuilder({
      captureContent: options.captureContent ?? contentCaptureFromEnvironment(),
      maxAttributeLength: options.maxAttributeLength ?? 65_536,
      resource: emptyResource(),
      openInference: options.openInference ?? openInferenceFromEnvironment(),
    });
  }

  /** True when spans have somewhere to go: a tracer provider given, or one registered. */
  tracing(): boolean {
    return this.#options.tracerProvider !== undefined || globalProviderRegistered();
  }

  /** The metrics of the meter provider given or registered; undefined when there is none. */
  metrics(): GenAiMetrics | undefined {
    const { meterProvider } = this.#options;
    if (meterProvider === false) return undefined;
    const provider = meterProvider ?? metrics.getMeterProvider();
    if (meterProvider === undefined && !meterProviderRegistered(provider)) return undefined;
    let recorder = this.#meters.get(provider);
    if (recorder === undefined) {
      recorder = new GenAiMetrics(provider);
      this.#meters.set(provider, recorder);
    }
    return recorder;
  }

  #tracer(): Tracer {
    const provider = this.#options.tracerProvider ?? trace.getTracerProvider();
    return provider.getTracer(scope.name, scope.version);
  }

  /**
   * Starts the run's span under the active context. A run the sampler drops gets no spans (a
   * dropped parent's children are dropped too), and is followed only for its metrics; its tools
   * run in its context, so what they call carries the not-sampled flag on.
   */
  runStarting(run: { readonly runId: string; readonly name: string }): LiveRun {
    const recorder = this.metrics();
    if (!this.tracing()) {
      this.#runs.set(run.runId, { spans: false, metrics: recorder });
      return { follow: recorder !== undefined };
    }
    const parent = context.active();
    const head = workflowSpanHead(run.runId, run.name);
    const span = this.#tracer().startSpan(
      head.name,
      { kind: head.kind, attributes: head.attributes },
      parent,
    );
    const live: Live = { span, context: trace.setSpan(parent, span) };
    const spanContext = span.spanContext();
    const traceId = trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
    const spans = span.isRecording();
    if (spans) this.#roots.set(run.runId, live);
    const follow = spans || recorder !== undefined;
    if (follow) this.#runs.set(run.runId, { spans, metrics: recorder });
    return { follow, handle: live, ...(traceId && { traceId }) };
  }

  spanStarted(event: TraceEvent): void {
    if (this.#runs.get(event.run)?.spans !== true) return;
    this.#builder.accept(event);
    const own = event.event === 'run_start' ? this.#roots.get(event.run) : undefined;
    if (own !== undefined) {
      this.#roots.delete(event.run);
      this.#spans.set(event.span_id, own);
      return;
    }
    const parent =
      (event.parent_span_id === null ? undefined : this.#spans.get(event.parent_span_id))
        ?.context ?? context.active();
    const head = spanHead(event);
    const span = this.#tracer().startSpan(
      head.name,
      { kind: head.kind, attributes: head.attributes, startTime: Date.parse(event.time) },
      parent,
    );
    this.#spans.set(event.span_id, { span, context: trace.setSpan(parent, span) });
  }

  spanEnded(event: TraceEvent): void {
    const run = this.#runs.get(event.run);
    if (run === undefined) return;
    if (event.event === 'run_end') this.#runs.delete(event.run);
    run.metrics?.record(event);
    if (!run.spans) return;
    const finished = this.#builder.accept(event);
    const live = this.#spans.get(event.span_id);
    if (live === undefined) return;
    this.#spans.delete(event.span_id);
    if (finished !== undefined && live.span.isRecording()) copyInto(live.span, finished);
    live.span.end(Date.parse(event.time));
  }

  pointEvent(event: TraceEvent): void {
    if (this.#runs.get(event.run)?.spans === true) this.#builder.accept(event);
  }

  within<T>(at: LiveSpanAt, work: () => T): T {
    const live = this.#live(at);
    return live === undefined ? work() : context.with(live.context, work);
  }

  /** The span's context as the application's propagators write it (`traceparent`, …). */
  traceHeaders(at: LiveSpanAt): Record<string, string> | undefined {
    const live = this.#live(at);
    if (live === undefined) return undefined;
    const carrier: Record<string, string> = {};
    propagation.inject(live.context, carrier);
    return carrier;
  }

  /** The span followed live, or the run's own when the run's spans are not followed. */
  #live(at: LiveSpanAt): Live | undefined {
    return this.#spans.get(at.spanId) ?? (at.run?.handle as Live | undefined);
  }
}

/** What the span built from the whole span (start, points and end) adds to the live one. */
function copyInto(span: Span, finished: ReadableSpan): void {
  span.updateName(finished.name);
  span.setAttributes(finished.attributes);
  for (const event of finished.events) span.addEvent(event.name, event.attributes, event.time);
  span.setStatus(finished.status);
}
