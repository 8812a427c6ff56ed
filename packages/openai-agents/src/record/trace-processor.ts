import type { Clock } from '@agent-trace/core';
import { BridgedRuns, type BridgeRecordingOptions } from '@agent-trace/core/internal';
import type { Span, Trace, TracingProcessor } from '@openai/agents';
import { RecordedTrace } from './recorded-trace.js';

/** Options of {@link agentTraceProcessor}: where runs go and how they are written. */
export type AgentTraceProcessorOptions = BridgeRecordingOptions;

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
  const spanClock = new SpanClock();
  const runs = new BridgedRuns(options, spanClock);
  const traces = new Map<string, RecordedTrace>();
  const at = (time: string | null): void => {
    const parsedTime = time === null ? Number.NaN : Date.parse(time);
    spanClock.at = Number.isNaN(parsedTime) ? Date.now() : parsedTime;
  };
  return {
    onTraceStart(trace: Trace) {
      const tracer = runs.open(trace.name, trace.groupId ?? undefined);
      traces.set(trace.traceId, new RecordedTrace(tracer, runs.prices));
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
      runs.closed(recorded.tracer);
      return Promise.resolve();
    },
    forceFlush: () => runs.flush(),
    shutdown: () => runs.flush(),
    flush: () => runs.flush(),
  };
}
