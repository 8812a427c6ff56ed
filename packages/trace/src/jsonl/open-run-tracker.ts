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

  /** Takes note of one event. */
  observe(event: TraceEvent): void {
    if (event.event === 'run_start') {
      this.#runs.set(event.run, {
        start: event,
        lastSeq: event.seq,
        open: new Map([[event.span_id, event]]),
        countsByAgentSpan: new Map(),
        stepsByWorkflowSpan: new Map(),
        agents: 0,
        llmCalls: 0,
        toolCalls: 0,
        toolErrors: 0,
        promptTokens: 0,
        completionTokens: 0,
      });
      return;
    }
    const run = this.#runs.get(event.run);
    if (run === undefined) return;
    if (event.event === 'run_end') {
      this.#runs.delete(event.run);
      return;
    }
    run.lastSeq = event.seq;
    if (isSpanStart(event.event)) {
      run.open.set(event.span_id, event);
      const agentCounts =
        event.parent_span_id === null ? undefined : run.countsByAgentSpan.get(event.parent_span_id);
      if (event.event === 'agent_start') {
        run.agents++;
        run.countsByAgentSpan.set(event.span_id, { steps: 0, toolCalls: 0 });
      } else if (event.event === 'workflow_start') {
        run.stepsByWorkflowSpan.set(event.span_id, { completed: 0, failed: 0, skipped: 0 });
      } else if (event.event === 'tool_start') {
        run.toolCalls++;
        if (agentCounts !== undefined) agentCounts.toolCalls++;
      } else if (event.event === 'llm_start') {
        run.llmCalls++;
        if (agentCounts !== undefined) agentCounts.steps++;
      }
      return;
    }
    run.open.delete(event.span_id);
    if (event.event === 'llm_end') {
      run.promptTokens += event.tok_prompt;
      run.completionTokens += event.tok_completion;
    } else if (event.event === 'tool_end' && event.error !== undefined) {
      run.toolErrors++;
    } else if (event.event === 'agent_end') {
      run.countsByAgentSpan.delete(event.span_id);
    } else if (event.event === 'workflow_step_end' && event.status !== 'interrupted') {
      const steps =
        event.parent_span_id === null
          ? undefined
          : run.stepsByWorkflowSpan.get(event.parent_span_id);
      if (steps !== undefined) steps[event.status]++;
    } else if (event.event === 'workflow_end') {
      run.stepsByWorkflowSpan.delete(event.span_id);
    }
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
    return closing;
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
