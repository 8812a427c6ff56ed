import type { AnyAgent } from '../agent/agent.js';
import { RunAbortedError } from '../errors/abort-error.js';
import { ToolCallError } from '../errors/tool-call-error.js';
import type { ToolCallRequest } from '../protocol/message.js';
import { runGuardrails } from '../guardrail/run-guardrails.js';
import { delegationOf } from '../handoff/as-tool.js';
import { runDelegate, type RunAgent } from './run-delegate.js';
import { breakerFor } from './circuit-breakers.js';
import { canonicalJson } from '../util/canonical-json.js';
import {
  executeToolCall,
  parseToolArguments,
  type ParsedToolArguments,
  type ToolCallOutcome,
} from '../tool/execute-tool-call.js';
import type { OpenSpan, RunTracer, TraceEventFields } from '../trace/run-tracer.js';
import type { Writable } from '../util/writable.js';
import type { Chunk } from '../protocol/chunk.js';
import type { Conversation } from './conversation.js';
import type { ToolCallRecord } from '../protocol/records.js';
import type { RunState } from './run-state.js';
import { toTraceError } from './to-trace-error.js';

interface PendingCall {
  readonly call: ToolCallRequest;
  readonly parsed: ParsedToolArguments;
  readonly args: unknown;
  readonly startMs: number;
  attempt: number;
}

interface FinishedCall {
  readonly pending: PendingCall;
  readonly outcome: ToolCallOutcome;
  readonly endMs: number;
  /** Chunks of a delegated agent, streamed before the call's `tool_response`. */
  readonly chunks: readonly Chunk[];
}

/** Failures worth trying again: the tool ran and broke, or took too long. */
function isRetryable(outcome: ToolCallOutcome): boolean {
  return (
    !outcome.ok && (outcome.error.kind === 'execution_failed' || outcome.error.kind === 'timeout')
  );
}

/**
 * Runs the tool calls of one model response. All calls of a round run in parallel; calls whose
 * execution failed are retried (up to `retry.toolRetries`) in the next round. A tool that still
 * fails, or whose circuit breaker is open, is declared unavailable: the LLM is told to answer
 * without it, and `unavailableTools` remembers it. Events, chunks and results follow the order the
 * LLM asked for, whatever the timing.
 */
export async function* runToolCalls(options: {
  agent: AnyAgent;
  calls: readonly ToolCallRequest[];
  conversation: Conversation;
  agentSpan: OpenSpan;
  state: RunState;
  /** Tools declared unavailable so far; failing tools are added. */
  unavailableTools: Set<string>;
  /** The handoff path, for agents used as tools. */
  path: readonly string[];
  runAgent: RunAgent;
}): AsyncGenerator<Chunk, ToolCallRecord[], undefined> {
  const { agent, calls, conversation, agentSpan, state, unavailableTools } = options;
  const { tracer, chunks } = state;
  const finished = new Map<PendingCall, FinishedCall>();
  let round: PendingCall[] = [];
  for (const call of calls) {
    const parsed = parseToolArguments(call.argumentsText);
    const args = parsed.ok ? parsed.value : call.argumentsText;
    round.push({ call, parsed, args, startMs: state.clock.now(), attempt: 1 });
    if (chunks.wanted)
      yield chunks.make('tool_call', agent.name, {
        callId: call.callId,
        toolName: call.toolName,
        args,
      });
  }
  const inOrder = [...round];
  const spans = new Map<PendingCall, OpenSpan<'tool_start'>>();
  try {
    while (round.length > 0) {
      for (const pending of round) {
        spans.set(
          pending,
          tracer.start('tool_start', agent.name, agentSpan, toolStartFields(pending)),
        );
      }
      const blocked = new Map<PendingCall, ToolCallOutcome>();
      for (const pending of round) {
        if (pending.attempt > 1 || agent.guardrails.tool.length === 0) continue;
        const finding = await runGuardrails(
          agent.guardrails.tool,
          {
            stage: 'tool',
            text: canonicalJson(pending.args),
            agentName: agent.name,
            session: tracer.session,
            toolName: pending.call.toolName,
            args: pending.args,
          },
          { tracer, parent: spans.get(pending) as OpenSpan, findings: state.guardrailFindings },
        );
        if (finding !== undefined) {
          const error = new ToolCallError({
            kind: 'guardrail_blocked',
            toolName: pending.call.toolName,
            message: `Tool call to '${pending.call.toolName}' was blocked by guardrail '${finding.guardrail}': ${finding.reason}. Do not repeat it.`,
          });
          blocked.set(pending, { ok: false, args: pending.args, error, content: error.message });
        }
      }
      const views = new Map<PendingCall, RunTracer>();
      const captured = (pending: PendingCall): RunTracer => {
        const view = tracer.capture();
        views.set(pending, view);
        return view;
      };
      let settled;
      try {
        settled = await Promise.all(
          round.map(pending =>
            (blocked.has(pending)
              ? Promise.resolve({ outcome: blocked.get(pending) as ToolCallOutcome, chunks: [] })
              : attemptCall(pending, spans.get(pending) as OpenSpan, { ...options, captured })
            ).then(({ outcome, chunks: delegated }) => ({
              pending,
              outcome,
              chunks: delegated,
              endMs: state.clock.now(),
            })),
          ),
        );
      } finally {
        // Delegates' events enter the trace in call order, whatever order they finished in.
        for (const pending of round) views.get(pending)?.commit();
      }
      const next: PendingCall[] = [];
      for (const result of settled) {
        const { pending, outcome, endMs } = result;
        tracer.end(
          spans.get(pending) as OpenSpan<'tool_start'>,
          toolEndFields(pending, outcome),
          endMs,
        );
        if (isRetryable(outcome) && pending.attempt <= agent.resilience.toolRetries) {
          pending.attempt++;
          tracer.point('retry', agentSpan, {
            target: 'tool',
            name: pending.call.toolName,
            attempt: pending.attempt,
            delay_ms: 0,
            error: toTraceError(outcome.ok ? undefined : outcome.error),
          });
          next.push(pending);
        } else if (!outcome.ok && (isRetryable(outcome) || outcome.error.kind === 'circuit_open')) {
          unavailableTools.add(pending.call.toolName);
          finished.set(pending, { ...result, outcome: unavailable(outcome, pending.attempt) });
        } else {
          finished.set(pending, result);
        }
      }
      round = next;
    }
  } finally {
    for (const [pending, span] of spans) {
      if (!tracer.isOpen(span)) continue;
      tracer.end(span, {
        tool: pending.call.toolName,
        call_id: pending.call.callId,
        args: pending.args,
        error: toTraceError(
          new RunAbortedError({
            reason:
              state.signal?.aborted === true
                ? state.signal.reason
                : 'the stream consumer stopped reading',
          }),
        ),
        attempt: pending.attempt,
      });
    }
  }
  const records: ToolCallRecord[] = [];
  for (const pending of inOrder) {
    const { outcome, endMs, chunks: delegated } = finished.get(pending) as FinishedCall;
    const { call } = pending;
    yield* delegated;
    const record: ToolCallRecord = {
      callId: call.callId,
      toolName: call.toolName,
      agent: agent.name,
      args: outcome.args,
      result: outcome.ok ? outcome.result : undefined,
      error: outcome.ok ? undefined : outcome.error.message,
      durationMs: Math.max(0, endMs - pending.startMs),
      attempts: pending.attempt,
    };
    records.push(record);
    state.toolCalls.push(record);
    conversation.append({
      role: 'tool',
      callId: call.callId,
      toolName: call.toolName,
      content: outcome.content,
      isError: !outcome.ok,
    });
    if (chunks.wanted)
      yield chunks.make('tool_response', agent.name, {
        callId: call.callId,
        toolName: call.toolName,
        result: record.result,
        error: record.error,
      });
  }
  return records;
}

/** One attempt of one call, behind the tool's circuit breaker; a delegated agent runs nested. */
async function attemptCall(
  pending: PendingCall,
  toolSpan: OpenSpan,
  options: {
    agent: AnyAgent;
    state: RunState;
    path: readonly string[];
    runAgent: RunAgent;
    /** A capturing view of the tracer for a delegate of this call. */
    captured: (pending: PendingCall) => RunTracer;
  },
): Promise<{ outcome: ToolCallOutcome; chunks: readonly Chunk[] }> {
  const { agent, state } = options;
  const tool = agent.toolRegistry.get(pending.call.toolName);
  const delegation = tool === undefined ? undefined : delegationOf(tool);
  const checked = pending.parsed.ok ? tool?.input.safeParse(pending.parsed.value) : undefined;
  if (delegation !== undefined && checked?.success === true) {
    return runDelegate({
      caller: agent,
      delegation,
      callId: pending.call.callId,
      toolName: pending.call.toolName,
      args: checked.data as { input: string },
      toolSpan,
      path: options.path,
      // The delegate writes to a capturing view; the round commits views in call order.
      state: { ...state, tracer: options.captured(pending) },
      runAgent: options.runAgent,
    });
  }
  return { outcome: await attemptTool(agent, pending, state), chunks: [] };
}

/** One attempt of an ordinary tool, behind its circuit breaker. */
async function attemptTool(
  agent: AnyAgent,
  pending: PendingCall,
  state: RunState,
): Promise<ToolCallOutcome> {
  const tool = agent.toolRegistry.get(pending.call.toolName);
  const breaker = tool === undefined ? undefined : breakerFor(agent, tool, state);
  if (breaker !== undefined && !breaker.allows(state.clock.now())) {
    const error = new ToolCallError({
      kind: 'circuit_open',
      toolName: pending.call.toolName,
      message: `Tool '${pending.call.toolName}' was not run: its circuit breaker is open after ${breaker.options.failureThreshold} consecutive failures.`,
    });
    return { ok: false, args: pending.args, error, content: error.message };
  }
  const outcome = await executeToolCall({
    registry: agent.toolRegistry,
    call: pending.call,
    parsed: pending.parsed,
    agentName: agent.name,
    abortSignal: state.signal,
    clock: state.clock,
    ...(state.overrides.tool === undefined
      ? {}
      : {
          runTool: (args: unknown, execute: () => Promise<unknown>) =>
            (state.overrides.tool as NonNullable<typeof state.overrides.tool>)(
              {
                agentName: agent.name,
                toolName: pending.call.toolName,
                callId: pending.call.callId,
                args,
              },
              execute,
            ),
        }),
  });
  if (outcome.ok) breaker?.recordSuccess();
  else if (isRetryable(outcome)) breaker?.recordFailure(state.clock.now());
  return outcome;
}

function unavailable(outcome: ToolCallOutcome, attempts: number): ToolCallOutcome {
  if (outcome.ok) return outcome;
  const { error } = outcome;
  const why =
    error.kind === 'circuit_open'
      ? 'its circuit breaker is open'
      : `it failed ${attempts} time${attempts === 1 ? '' : 's'} (last error: ${error.message})`;
  const message = `Tool '${error.toolName}' is unavailable: ${why}. Do not call it again; answer with what you have.`;
  return {
    ok: false,
    args: outcome.args,
    error: new ToolCallError({
      kind: 'unavailable',
      toolName: error.toolName,
      message,
      cause: error,
    }),
    content: message,
  };
}

/** The fields of `tool_start`, built without spreads (a hot path: see llm-event-fields.ts). */
function toolStartFields(pending: PendingCall): TraceEventFields<'tool_start'> {
  const fields: Writable<TraceEventFields<'tool_start'>> = {
    tool: pending.call.toolName,
    call_id: pending.call.callId,
    args: pending.args,
  };
  if (pending.attempt > 1) fields.attempt = pending.attempt;
  return fields;
}

/** The fields of `tool_end`: the result, or the error. */
function toolEndFields(
  pending: PendingCall,
  outcome: ToolCallOutcome,
): Omit<TraceEventFields<'tool_end'>, 'duration_ms'> {
  const fields: Writable<Omit<TraceEventFields<'tool_end'>, 'duration_ms'>> = {
    tool: pending.call.toolName,
    call_id: pending.call.callId,
    args: outcome.args,
  } as Writable<Omit<TraceEventFields<'tool_end'>, 'duration_ms'>>;
  if (outcome.ok) fields.result = outcome.result;
  else fields.error = toTraceError(outcome.error);
  fields.attempt = pending.attempt; // after the result, as the golden traces have it
  return fields;
}
