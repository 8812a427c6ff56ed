import { randomIds, type Clock, type IdGenerator, type TraceSink } from '@agent-trace/core';
import { PriceTable, type ModelPrice } from '@agent-trace/core/cost';
import { RunTracer } from '@agent-trace/core/internal';
import { Redactor, type RedactionOptions } from '@agent-trace/core/redaction';
import type { Span, Trace, TracingProcessor } from '@openai/agents';
import { RecordedTrace } from './recorded-trace.js';

/** Options of {@link agentTraceProcessor}. */
export interface AgentTraceProcessorOptions {
  /** Where each run's events go: one sink or several (`jsonlSink`, `memorySink`, `otlpSink`). */
  readonly trace: TraceSink | readonly TraceSink[];
  /** The session every run's events carry. @defaultValue the SDK trace's `groupId`, else the run's id */
  readonly session?: string;
  /** Secrets replaced before any sink sees them; `false` turns it off. @defaultValue the known shapes */
  readonly redaction?: RedactionOptions | false;
  /** Prices of models, by `<provider>:<model>`, over the ones agent-trace knows. */
  readonly prices?: Readonly<Record<string, ModelPrice>>;
  /** @defaultValue the times the SDK's spans carry */
  readonly clock?: Clock;
  /** @defaultValue random ids */
  readonly ids?: IdGenerator;
}

/** The tracing processor that records agent-trace traces, and waits for its sinks. */
export interface AgentTraceProcessor extends TracingProcessor {
  /** Waits until every sink has stored what the runs gave it. */
  flush(): Promise<void>;
}

/** The time of the span being read: the events of a span carry the SDK's own times. */
class SpanClock implements Clock {
  at = Date.now();
  now(): number {
    return this.at;
  }
}

/**
 * Records the runs of unchanged OpenAI Agents SDK agents as agent-trace traces, through the SDK's
 * own tracing processor interface: `addTraceProcessor(agentTraceProcessor({ trace }))`. Each SDK
 * trace (a `run`, or a `withTrace` around several) is a run: its agents, their model calls (from
 * the response spans the SDK's OpenAI model and `openaiAgentsModel` keep), tool calls, handoffs and
 * agents used as tools, paired, and the seal with the SDK's stop as the stop reason.
 *
 * @example
 * ```ts
 * const processor = agentTraceProcessor({ trace: jsonlSink('traces/triage.jsonl') });
 * addTraceProcessor(processor);
 * await run(triage, 'Is Oslo cold?');
 * await processor.flush();
 * ```
 */
export function agentTraceProcessor(options: AgentTraceProcessorOptions): AgentTraceProcessor {
  const sinks: readonly TraceSink[] = Array.isArray(options.trace)
    ? (options.trace as readonly TraceSink[])
    : [options.trace as TraceSink];
  const prices = new PriceTable(options.prices);
  const spanClock = new SpanClock();
  const clock = options.clock ?? spanClock;
  const traces = new Map<string, RecordedTrace>();
  const flushes = new Set<Promise<void>>();
  const at = (time: string | null): void => {
    const parsedTime = time === null ? Number.NaN : Date.parse(time);
    spanClock.at = Number.isNaN(parsedTime) ? Date.now() : parsedTime;
  };
  const flushAll = async (): Promise<void> => {
    await Promise.all([...flushes, ...[...traces.values()].map(each => each.tracer.flush())]);
  };
  return {
    onTraceStart(trace: Trace) {
      const ids = options.ids ?? randomIds;
      const runId = ids.runId();
      const tracer = new RunTracer({
        sinks,
        runId,
        session: options.session ?? trace.groupId ?? runId,
        clock,
        ids,
        name: trace.name,
        ...(options.redaction === false ? {} : { redaction: new Redactor(options.redaction) }),
      });
      traces.set(trace.traceId, new RecordedTrace(tracer, prices));
      return Promise.resolve();
    },
    onSpanStart(span: Span<never>) {
      at(span.startedAt);
      traces.get(span.traceId)?.spanStarted(span);
      return Promise.resolve();
    },
    onSpanEnd(span: Span<never>) {
      at(span.endedAt);
      traces.get(span.traceId)?.spanEnded(span);
      return Promise.resolve();
    },
    onTraceEnd(trace: Trace) {
      const recorded = traces.get(trace.traceId);
      if (recorded === undefined) return Promise.resolve();
      traces.delete(trace.traceId);
      at(null);
      recorded.traceEnded();
      const flushed = recorded.tracer.flush();
      flushes.add(flushed);
      void flushed.finally(() => flushes.delete(flushed));
      return Promise.resolve();
    },
    forceFlush: flushAll,
    shutdown: flushAll,
    flush: flushAll,
  };
}
