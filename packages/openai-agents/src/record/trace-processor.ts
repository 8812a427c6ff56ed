import type { Clock } from '@agent-trace/core';
import { BridgedRuns, type BridgeRecordingOptions } from '@agent-trace/core/record';
import type { Span, Trace, TracingProcessor } from '@openai/agents';
import { RecordedTrace } from './recorded-trace.js';
import { conversationOf } from '../to-model-request.js';

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
 * One SDK trace's runs: each span at the top of the trace (a `run` call's task, or what the
 * application wrapped around it) is a run of its own, recorded by a `RecordedTrace` from its first
 * span until it ends; the spans under it go to it.
 */
class TraceRuns {
  readonly #runs = new Map<string, RecordedTrace>();
  readonly #topOf = new Map<string, string>();

  constructor(
    private readonly open: () => RecordedTrace,
    private readonly close: (run: RecordedTrace) => void,
    private readonly park: (run: RecordedTrace) => void,
  ) {}

  /** The run `span` belongs to (a new one for a span at the top), remembered for its children. */
  started(span: Span<never>): RecordedTrace | undefined {
    const top = span.parentId === null ? span.spanId : this.#topOf.get(span.parentId);
    if (top === undefined) return undefined;
    this.#topOf.set(span.spanId, top);
    let run = this.#runs.get(top);
    if (run === undefined) {
      run = this.open();
      this.#runs.set(top, run);
    }
    return run;
  }

  /** The run `span` belongs to; a span at the top ends its run after it. */
  ended(span: Span<never>, record: (run: RecordedTrace) => void): void {
    const top = this.#topOf.get(span.spanId);
    this.#topOf.delete(span.spanId);
    const run = top === undefined ? undefined : this.#runs.get(top);
    if (run === undefined) return;
    record(run);
    if (top === span.spanId) this.#end(top, run);
  }

  /** The trace ended: the runs still open end with it. */
  endAll(): void {
    for (const [top, run] of [...this.#runs]) this.#end(top, run);
    this.#topOf.clear();
  }

  #end(top: string, run: RecordedTrace): void {
    this.#runs.delete(top);
    run.traceEnded();
    if (run.awaitsInput) this.park(run);
    else this.close(run);
  }
}

/**
 * Records the runs of unchanged OpenAI Agents SDK agents as agent-trace traces, through the SDK's
 * own tracing processor interface: `addTraceProcessor(agentTraceProcessor({ trace }))`. Each `run`
 * is a run, also several in one `withTrace` (a run each, in the order they start, each sealed when
 * it ends; the trace's name is each run's name and its group id their session): its agents, their
 * model calls (from the response spans the SDK's OpenAI model and `openaiAgentsModel` keep), tool
 * calls, handoffs and agents used as tools, paired, and the seal with the SDK's stop as the stop
 * reason.
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
  return recordingProcessor(options, false);
}

/** A processor that also learns the input of runs an input guardrail blocked, from the error. */
export interface InputLearningProcessor extends AgentTraceProcessor {
  /** The error a `run` threw: a blocked run waiting for its input is told it from the SDK's state. */
  learnInput(error: unknown): void;
}

/**
 * The processor; with `waitForInput`, a run stopped before any span showed its input waits (not
 * sealed) until {@link InputLearningProcessor.learnInput} or `flush`.
 */
export function recordingProcessor(
  options: AgentTraceProcessorOptions,
  waitForInput: boolean,
): InputLearningProcessor {
  const spanClock = new SpanClock();
  const runs = new BridgedRuns(options, spanClock);
  const traces = new Map<string, TraceRuns>();
  const parked: RecordedTrace[] = [];
  const end = (run: RecordedTrace, input: string) => {
    run.endBlocked(input);
    runs.closed(run.tracer);
  };
  const at = (time: string | null): void => {
    const parsedTime = time === null ? Number.NaN : Date.parse(time);
    spanClock.at = Number.isNaN(parsedTime) ? Date.now() : parsedTime;
  };
  const flush = () => {
    for (const run of parked.splice(0)) end(run, '');
    return runs.flush();
  };
  return {
    onTraceStart(trace: Trace) {
      const open = () =>
        new RecordedTrace(runs.open(trace.name, trace.groupId ?? undefined), runs, waitForInput);
      const close = (run: RecordedTrace) => runs.closed(run.tracer);
      traces.set(trace.traceId, new TraceRuns(open, close, run => void parked.push(run)));
      return Promise.resolve();
    },
    onSpanStart(span: Span<never>) {
      at(span.startedAt);
      traces.get(span.traceId)?.started(span)?.spanStarted(span);
      return Promise.resolve();
    },
    onSpanEnd(span: Span<never>) {
      at(span.endedAt);
      traces.get(span.traceId)?.ended(span, run => run.spanEnded(span));
      return Promise.resolve();
    },
    onTraceEnd(trace: Trace) {
      const recorded = traces.get(trace.traceId);
      if (recorded === undefined) return Promise.resolve();
      traces.delete(trace.traceId);
      at(null);
      recorded.endAll();
      return Promise.resolve();
    },
    learnInput(error: unknown) {
      // Which blocked run the error is from is known only when one waits.
      const input = inputOfState(error);
      if (parked.length !== 1 || input === undefined) return;
      end(parked.pop() as RecordedTrace, input);
    },
    forceFlush: flush,
    shutdown: flush,
    flush,
  };
}

/** The first user message of the history an SDK error's run state holds (its public `history`). */
function inputOfState(error: unknown): string | undefined {
  const state = (error as { state?: { history?: unknown } } | null)?.state;
  const history = state?.history;
  if (!Array.isArray(history)) return undefined;
  const first = conversationOf(history as Record<string, unknown>[]).messages.find(
    message => message.role === 'user',
  );
  return first?.content;
}
