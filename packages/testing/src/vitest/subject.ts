import type { RunResult, TraceEvent } from '@agent-trace/core';
import type { FakeTool } from '../fake-tool.js';

/** A tool call as the matchers see it. */
export interface SubjectToolCall {
  readonly name: string;
  readonly args: unknown;
  readonly agent: string;
  readonly error: string | undefined;
  readonly result: unknown;
  /** 1 for a first attempt; more for a retry (traces record each attempt). */
  readonly attempt: number;
}

/** What the matchers can assert on, whatever they were given. */
export interface Subject {
  /** `trace`, `result` or `fake tool`, for messages. */
  readonly kind: 'trace' | 'result' | 'fake tool';
  readonly toolCalls: readonly SubjectToolCall[];
  readonly handoffs: readonly { from: string; to: string; depth: number; mode: string }[];
  readonly stopReason: string | undefined;
  /** Model calls (steps). */
  readonly steps: number;
  readonly errors: readonly string[];
  /** Tokens (prompt + completion) by agent. */
  readonly tokensByAgent: ReadonlyMap<string, number>;
  /** The events, when the subject is a trace. */
  readonly events: readonly TraceEvent[] | undefined;
  /** Calls that waited for a person's approval, and the decisions on them (traces only). */
  readonly approvals: {
    readonly requested: readonly {
      readonly tool: string;
      readonly callId: string;
      readonly args: unknown;
    }[];
    readonly resolved: readonly {
      readonly tool: string;
      readonly callId: string;
      readonly decision: string;
      readonly by: string | undefined;
    }[];
  };
}

/**
 * Reads a trace (an array of events or anything with `events`, like a memory sink), a run result
 * or a FakeTool into one shape. Throws a TypeError naming what it accepts otherwise.
 */
export function toSubject(value: unknown): Subject {
  if (Array.isArray(value)) return fromEvents(value as TraceEvent[]);
  if (typeof value === 'object' && value !== null) {
    if ('events' in value && Array.isArray(value.events)) {
      return fromEvents((value as { events: TraceEvent[] }).events);
    }
    if ('stopReason' in value && 'toolCalls' in value)
      return fromResult(value as RunResult<unknown>);
    if ('calls' in value && 'definition' in value) return fromFakeTool(value as FakeTool);
  }
  throw new TypeError(
    'agent-trace matchers take a trace (an array of events, or a memorySink), a run result, or a fakeTool.',
  );
}

function fromEvents(events: readonly TraceEvent[]): Subject {
  const toolCalls: SubjectToolCall[] = [];
  const handoffs: Subject['handoffs'][number][] = [];
  const errors: string[] = [];
  const tokensByAgent = new Map<string, number>();
  let stopReason: string | undefined;
  let steps = 0;
  const approvals = {
    requested: [] as Subject['approvals']['requested'][number][],
    resolved: [] as Subject['approvals']['resolved'][number][],
  };
  for (const event of events) {
    switch (event.event) {
      case 'approval_requested':
        approvals.requested.push({ tool: event.tool, callId: event.call_id, args: event.args });
        break;
      case 'approval_resolved':
        approvals.resolved.push({
          tool: event.tool,
          callId: event.call_id,
          decision: event.decision,
          by: event.by,
        });
        break;
      case 'tool_end':
        toolCalls.push({
          name: event.tool,
          args: event.args,
          agent: event.agent,
          error: event.error?.message,
          result: event.result,
          attempt: event.attempt,
        });
        if (event.error !== undefined)
          errors.push(`tool ${event.tool}: ${event.error.type}: ${event.error.message}`);
        break;
      case 'handoff_start':
        handoffs.push({ from: event.from, to: event.to, depth: event.depth, mode: event.mode });
        break;
      case 'llm_end':
        steps++;
        tokensByAgent.set(
          event.agent,
          (tokensByAgent.get(event.agent) ?? 0) + event.tok_prompt + event.tok_completion,
        );
        if (event.error !== undefined)
          errors.push(`llm ${event.model}: ${event.error.type}: ${event.error.message}`);
        break;
      case 'run_end':
        stopReason = event.stop_reason;
        if (event.error !== undefined)
          errors.push(`run: ${event.error.type}: ${event.error.message}`);
        break;
      default:
        break;
    }
  }
  return {
    kind: 'trace',
    toolCalls,
    handoffs,
    stopReason,
    steps,
    errors,
    tokensByAgent,
    events,
    approvals,
  };
}

function fromResult(result: RunResult<unknown>): Subject {
  const tokensByAgent = new Map<string, number>();
  for (const step of result.steps) {
    tokensByAgent.set(
      step.agent,
      (tokensByAgent.get(step.agent) ?? 0) + step.usage.promptTokens + step.usage.completionTokens,
    );
  }
  const errors = result.toolCalls.flatMap(call =>
    call.error === undefined ? [] : [`tool ${call.toolName}: ${call.error}`],
  );
  if (result.error !== undefined) errors.push(`run: ${result.error.message}`);
  return {
    kind: 'result',
    toolCalls: result.toolCalls.map(call => ({
      name: call.toolName,
      args: call.args,
      agent: call.agent,
      error: call.error,
      result: call.result,
      attempt: call.attempts,
    })),
    handoffs: result.handoffs,
    stopReason: result.stopReason,
    steps: result.steps.length,
    errors,
    tokensByAgent,
    events: undefined,
    approvals: {
      requested: result.interruptions.map(approval => ({
        tool: approval.toolName,
        callId: approval.callId,
        args: approval.args,
      })),
      resolved: [],
    },
  };
}

function fromFakeTool(tool: FakeTool): Subject {
  return {
    kind: 'fake tool',
    toolCalls: tool.calls.map(call => ({
      name: tool.name,
      args: call.args,
      agent: call.agentName,
      error: call.error,
      result: call.result,
      attempt: 1,
    })),
    handoffs: [],
    stopReason: undefined,
    steps: 0,
    errors: tool.calls.flatMap(call =>
      call.error === undefined ? [] : [`tool ${tool.name}: ${call.error}`],
    ),
    tokensByAgent: new Map(),
    events: undefined,
    approvals: { requested: [], resolved: [] },
  };
}
