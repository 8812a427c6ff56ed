import { TRACE_SCHEMA_VERSION, type TraceEvent, type TraceEventOf } from '@agent-trace/core';
import { isSpanStart, spanEndFor } from '@agent-trace/core/spans';

interface OpenRun {
  readonly start: TraceEventOf<'run_start'>;
  lastSeq: number;
  readonly open: Map<string, TraceEvent>;
  /** Model and tool calls per open agent span, for a synthesised `agent_end`. */
  readonly countsByAgentSpan: Map<string, { steps: number; toolCalls: number }>;
  /** Steps ended so far per open workflow span, for a synthesised `workflow_end`. */
  readonly stepsByWorkflowSpan: Map<string, { completed: number; failed: number; skipped: number }>;
  agents: number;
  llmCalls: number;
  toolCalls: number;
  toolErrors: number;
  promptTokens: number;
  completionTokens: number;
}

/**
 * Follows the runs whose events pass through a sink, so that when the process dies in the middle
 * of a run, the sink can still close every open span and seal the run: the file stays readable
 * and its starts and ends pair.
 */
export class OpenRunTracker {
  readonly #runs = new Map<string, OpenRun>();
  /** The run of the last event observed, and its id: a run's events come in a row. */
  #last: OpenRun | undefined;
  #lastId: string | undefined;

  /** Takes note of one event. */
  observe(event: TraceEvent): void {
    // Each read of an event's field is a lookup across every event shape: each is read once.
    const kind = event.event;
    if (kind === 'run_start') {
      this.#lastId = undefined;
      this.#runs.set(event.run, openRun(event));
      return;
    }
    const id = event.run;
    const run = id === this.#lastId ? this.#last : this.#runs.get(id);
    if (run === undefined) return;
    if (kind === 'run_end') {
      this.#runs.delete(id);
      this.#lastId = undefined;
      return;
    }
    this.#last = run;
    this.#lastId = id;
    run.lastSeq = event.seq;
    if (isSpanStart(kind)) started(run, event);
    else ended(run, event);
  }

  /** True when some run has started and not ended. */
  get hasOpenRuns(): boolean {
    return this.#runs.size > 0;
  }

  /**
   * The events that close every open span of every unfinished run, innermost first, each run
   * sealed with a `run_end` (stop reason `aborted`). Forgets those runs.
   */
  closeAll(reason: string, nowMs: number): TraceEvent[] {
    const closing: TraceEvent[] = [];
    const error = { type: 'aborted', message: `Run interrupted: ${reason}.` };
    const time = new Date(nowMs).toISOString();
    for (const run of this.#runs.values()) {
      const starts = [...run.open.values()].reverse();
      for (const start of starts) {
        run.lastSeq++;
        const durationMs = Math.max(0, nowMs - Date.parse(start.time));
        const envelope = {
          v: TRACE_SCHEMA_VERSION,
          seq: run.lastSeq,
          time,
          run: start.run,
          session: start.session,
          trace_id: start.trace_id,
          span_id: start.span_id,
          parent_span_id: start.parent_span_id,
          agent: start.agent,
        };
        closing.push(closeSpan(start, envelope, run, durationMs, error));
      }
    }
    this.#runs.clear();
    this.#lastId = undefined;
    return closing;
  }
}

function openRun(start: TraceEventOf<'run_start'>): OpenRun {
  return {
    start,
    lastSeq: start.seq,
    open: new Map([[start.span_id, start]]),
    countsByAgentSpan: new Map(),
    stepsByWorkflowSpan: new Map(),
    agents: 0,
    llmCalls: 0,
    toolCalls: 0,
    toolErrors: 0,
    promptTokens: 0,
    completionTokens: 0,
  };
}

/** A span of the run started. */
function started(run: OpenRun, event: TraceEvent): void {
  const spanId = event.span_id;
  run.open.set(spanId, event);
  const parent = event.parent_span_id;
  switch (event.event) {
    case 'agent_start':
      run.agents++;
      run.countsByAgentSpan.set(spanId, { steps: 0, toolCalls: 0 });
      return;
    case 'workflow_start':
      run.stepsByWorkflowSpan.set(spanId, { completed: 0, failed: 0, skipped: 0 });
      return;
    case 'tool_start': {
      run.toolCalls++;
      const agentCounts = parent === null ? undefined : run.countsByAgentSpan.get(parent);
      if (agentCounts !== undefined) agentCounts.toolCalls++;
      return;
    }
    case 'llm_start': {
      run.llmCalls++;
      const agentCounts = parent === null ? undefined : run.countsByAgentSpan.get(parent);
      if (agentCounts !== undefined) agentCounts.steps++;
      return;
    }
  }
}

/** Any other event of the run: a span's end closes it, and some ends add to the counts. */
function ended(run: OpenRun, event: TraceEvent): void {
  run.open.delete(event.span_id);
  switch (event.event) {
    case 'llm_end':
      run.promptTokens += event.tok_prompt;
      run.completionTokens += event.tok_completion;
      return;
    case 'tool_end':
      if (event.error !== undefined) run.toolErrors++;
      return;
    case 'agent_end':
      run.countsByAgentSpan.delete(event.span_id);
      return;
    case 'workflow_step_end': {
      if (event.status === 'interrupted') return;
      const parent = event.parent_span_id;
      const steps = parent === null ? undefined : run.stepsByWorkflowSpan.get(parent);
      if (steps !== undefined) steps[event.status]++;
      return;
    }
    case 'workflow_end':
      run.stepsByWorkflowSpan.delete(event.span_id);
      return;
  }
}

type Envelope = Omit<TraceEvent, 'event'> & Record<string, unknown>;

function closeSpan(
  start: TraceEvent,
  envelope: Envelope,
  run: OpenRun,
  durationMs: number,
  error: { type: string; message: string },
): TraceEvent {
  const end = { ...envelope, duration_ms: durationMs };
  switch (start.event) {
    case 'tool_start':
      return {
        ...end,
        event: spanEndFor.tool_start,
        tool: start.tool,
        call_id: start.call_id,
        args: start.args,
        error,
        attempt: 1,
      };
    case 'llm_start':
      return {
        ...end,
        event: spanEndFor.llm_start,
        model: start.model,
        provider: start.provider,
        step: start.step,
        tok_prompt: 0,
        tok_completion: 0,
        error,
      };
    case 'handoff_start':
      return {
        ...end,
        event: spanEndFor.handoff_start,
        from: start.from,
        to: start.to,
        depth: start.depth,
        mode: start.mode,
        error,
      };
    case 'agent_start':
      return {
        ...end,
        event: spanEndFor.agent_start,
        stop_reason: 'aborted',
        steps: run.countsByAgentSpan.get(start.span_id)?.steps ?? 0,
        tool_calls: run.countsByAgentSpan.get(start.span_id)?.toolCalls ?? 0,
        tok_prompt: 0,
        tok_completion: 0,
        error,
      };
    case 'span_start':
    case 'workflow_start':
    case 'workflow_step_start':
      return closeOtherSpan(start, end, run, error);
    default:
      return {
        ...end,
        event: 'run_end',
        stop_reason: 'aborted',
        last_seq: envelope.seq,
        counts: {
          events: envelope.seq + 1,
          agents: run.agents,
          llm_calls: run.llmCalls,
          tool_calls: run.toolCalls,
          tool_errors: run.toolErrors,
        },
        tok_prompt: run.promptTokens,
        tok_completion: run.completionTokens,
        error,
      };
  }
}

/** The end of a plain span, a workflow or a workflow step cut off. */
function closeOtherSpan(
  start: TraceEventOf<'span_start' | 'workflow_start' | 'workflow_step_start'>,
  end: Envelope & { duration_ms: number },
  run: OpenRun,
  error: { type: string; message: string },
): TraceEvent {
  switch (start.event) {
    case 'span_start':
      return { ...end, event: spanEndFor.span_start, name: start.name, error };
    case 'workflow_start':
      return {
        ...end,
        event: spanEndFor.workflow_start,
        workflow: start.workflow,
        status: 'aborted',
        steps: run.stepsByWorkflowSpan.get(start.span_id) ?? {
          completed: 0,
          failed: 0,
          skipped: 0,
        },
        error,
      };
    case 'workflow_step_start':
      return {
        ...end,
        event: spanEndFor.workflow_step_start,
        workflow: start.workflow,
        name: start.name,
        status: 'failed',
        attempts: 0,
        error,
      };
  }
}
