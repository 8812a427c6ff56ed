import { paceStep } from '../frame/pace-step.js';
import { nextTask } from '../../util/next-task.js';
import { allSettledFirst } from '../../util/all-settled-first.js';
import type { AgentRunner } from '../turn/agent-runner.js';
import type { AnyAgent } from '../../agent/agent.js';
import type { AnyTool } from '../../tool/tool.js';
import { RunAbortedError } from '../../errors/abort-error.js';
import type { ToolCallRequest } from '../../protocol/message.js';
import { delegationOf } from '../../agent/as-tool.js';
import { runDelegate } from './run-delegate.js';
import {
  executeToolCall,
  parseToolArguments,
  type ToolCallOutcome,
} from '../../tool/execute-tool-call.js';
import type { OpenSpan, RunTracer } from '../../trace/run-tracer.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { ToolCallRecord } from '../../protocol/records.js';
import { withTracer, type RunState } from '../frame/run-state.js';
import { eventRecorder, type TurnContext } from '../seam/feature-context.js';
import { transformedResults } from './transformed-results.js';
import { refusalOf, settleHolds, type Hooks } from '../seam/seam.js';
import { toTraceError } from '../frame/to-trace-error.js';
import { finishedCall, restoreFinished } from '../pause/paused-tool-calls.js';
import { toolEndFields, toolStartFields } from './tool-call-fields.js';
import { gone, isRetryable, unavailable } from './tool-availability.js';
import type {
  Attempt,
  PendingCall,
  ResumedPhase,
  SettledCall,
  ToolPhase,
  ToolPhaseResult,
} from './tool-phase.js';

export type { ResumedPhase, ToolPhaseResult } from './tool-phase.js';

/** A tool phase's calls in the order asked: those that finished before a pause, those to run. */
export interface PlannedCalls {
  readonly inOrder: readonly PendingCall[];
  readonly finished: Map<PendingCall, SettledCall>;
  readonly toRun: readonly PendingCall[];
}

/** One model response's calls, their arguments parsed; a resumed phase's finished ones kept. */
export function planToolCalls(
  phase: ToolPhase & { readonly calls: readonly ToolCallRequest[] },
): PlannedCalls {
  const inOrder = pendingCalls(phase, phase.calls);
  const finished = restoreFinished(phase, inOrder);
  return { inOrder, finished, toRun: inOrder.filter(pending => !finished.has(pending)) };
}

/** A `tool_call` chunk for each call about to run, announcing it; none when no chunk is wanted. */
export function announcedCalls(phase: ToolPhase, planned: PlannedCalls): Chunk[] {
  return phase.state.chunks.wanted ? callChunks(phase, planned.toRun) : [];
}

/**
 * Runs the planned tool calls of one model response. All calls of a round run in parallel; calls
 * whose execution failed are retried (up to `retry.toolRetries`) in the next round. A tool that
 * still fails, or whose circuit breaker is open, is declared unavailable: the LLM is told to answer
 * without it, and `unavailableTools` remembers it. Events, chunks and results follow the order the
 * LLM asked for, whatever the timing. Gives the phase's result and the chunks that follow it (the
 * delegates', then a `tool_response` a call). An async function, not a generator: it yields
 * nothing while the calls run, and a generator layer cost every step four promises.
 */
export async function runToolCalls(
  phase: ToolPhase,
  { inOrder, finished, toRun }: PlannedCalls,
): Promise<{ readonly result: ToolPhaseResult; readonly chunks: readonly Chunk[] }> {
  const spans = new Map<PendingCall, OpenSpan<'tool_start'>>();
  try {
    for (let round = toRun; round.length > 0;) {
      round = await runRound(phase, round, spans, finished);
    }
  } finally {
    closeInterruptedSpans(phase.state, spans);
  }
  const paused = [...finished.values()].find(settled => settled.paused !== undefined);
  if (paused?.paused !== undefined) {
    const result: ToolPhaseResult = {
      records: [],
      paused: {
        callId: paused.pending.call.callId,
        turn: paused.paused,
        finished: inOrder
          .filter(pending => pending !== paused.pending)
          .map(pending => finishedCall(finished.get(pending) as SettledCall)),
      },
    };
    return { result, chunks: paused.chunks };
  }
  const read =
    phase.hooks.transforms.toolResults.length === 0
      ? undefined
      : await transformedResults(phase, inOrder, finished);
  const { records, chunks } = deliverResults(phase, inOrder, finished, read);
  return { result: { records }, chunks };
}

/** Each call with its arguments parsed, first attempt. */
function pendingCalls(
  { agent, state, thought }: ToolPhase,
  calls: readonly ToolCallRequest[],
): PendingCall[] {
  return calls.map(call => {
    const parsed = parseToolArguments(call.argumentsText);
    const args = parsed.ok ? parsed.value : call.argumentsText;
    const origin = agent.toolRegistry.get(call.toolName)?.origin;
    const server =
      origin === undefined ? undefined : { name: origin.server, transport: origin.transport };
    return {
      call,
      server,
      parsed,
      args,
      startMs: state.clock.now(),
      thought: thought === '' ? undefined : thought,
      attempt: 1,
    };
  });
}

/** A `tool_call` chunk per call, announcing it. */
function callChunks({ agent, state }: ToolPhase, pending: readonly PendingCall[]): Chunk[] {
  return pending.map(({ call, args }) =>
    state.chunks.make('tool_call', agent.name, {
      callId: call.callId,
      toolName: call.toolName,
      args,
    }),
  );
}

const noneBlocked: ReadonlyMap<PendingCall, ToolCallOutcome> = new Map();

/** One round: spans open in call order, the features' say, the calls in parallel, then who retries. */
async function runRound(
  phase: ToolPhase,
  round: readonly PendingCall[],
  spans: Map<PendingCall, OpenSpan<'tool_start'>>,
  finished: Map<PendingCall, SettledCall>,
): Promise<PendingCall[]> {
  const { agent, agentSpan, state } = phase;
  const paced = paceStep(state, agentSpan, 'tool_round', phase.at.step);
  if (paced !== undefined) await paced;
  for (const pending of round) {
    spans.set(
      pending,
      state.tracer.start('tool_start', agent.name, agentSpan, toolStartFields(pending)),
    );
  }
  const blocked =
    phase.hooks.beforeToolRounds.length === 0
      ? noneBlocked
      : await refusedCalls(phase, round, spans);
  state.tracer.decided(agentSpan);
  const settled = await executeRound(phase, round, spans, blocked);
  const next: PendingCall[] = [];
  for (const result of settled) {
    const { pending, outcome, endMs } = result;
    state.tracer.end(
      spans.get(pending) as OpenSpan<'tool_start'>,
      toolEndFields(pending, outcome),
      endMs,
    );
    if (result.paused !== undefined) {
      finished.set(pending, result);
    } else if (isRetryable(outcome) && pending.attempt <= agent.resilience.toolRetries) {
      pending.attempt++;
      state.tracer.point('retry', agentSpan, {
        target: 'tool',
        name: pending.call.toolName,
        attempt: pending.attempt,
        delay_ms: 0,
        error: toTraceError(outcome.ok ? undefined : outcome.error),
      });
      next.push(pending);
    } else if (!outcome.ok && (isRetryable(outcome) || gone(outcome))) {
      phase.unavailableTools.add(pending.call.toolName);
      finished.set(pending, { ...result, outcome: unavailable(outcome, pending.attempt) });
    } else {
      finished.set(pending, result);
    }
  }
  return next;
}

/** The features' say on a round before it runs (tool guardrails): the calls they refuse. */
async function refusedCalls(
  { state, hooks, at }: ToolPhase,
  round: readonly PendingCall[],
  spans: ReadonlyMap<PendingCall, OpenSpan>,
): Promise<ReadonlyMap<PendingCall, ToolCallOutcome>> {
  const calls = round.map(pending => ({
    call: pending.call,
    args: pending.args,
    attempt: pending.attempt,
    record: eventRecorder(state, spans.get(pending) as OpenSpan),
  }));
  const refused = await hooks.beforeToolRound(at.with({ calls }));
  if (refused.size === 0) return noneBlocked;
  const blocked = new Map<PendingCall, ToolCallOutcome>();
  for (const pending of round) {
    const error = refused.get(pending.call.callId);
    if (error !== undefined)
      blocked.set(pending, { ok: false, args: pending.args, error, content: error.message });
  }
  return blocked;
}

/** Runs the round's calls in parallel; delegates' events enter the trace in call order. */
async function executeRound(
  phase: ToolPhase,
  round: readonly PendingCall[],
  spans: ReadonlyMap<PendingCall, OpenSpan>,
  blocked: ReadonlyMap<PendingCall, ToolCallOutcome>,
): Promise<SettledCall[]> {
  const { state } = phase;
  const views = new Map<PendingCall, RunTracer>();
  const captured = (pending: PendingCall): RunTracer => {
    const view = state.tracer.capture();
    views.set(pending, view);
    return view;
  };
  // Built once a round, field by field: a spread of the phase for every call cost the loop's step.
  const options: AttemptOptions = {
    agent: phase.agent,
    state,
    path: phase.path,
    captured,
    hooks: phase.hooks,
    at: phase.at,
    resumed: phase.resumed,
    runAgent: phase.runAgent,
  };
  try {
    return await allSettledFirst(
      round.map(pending =>
        (blocked.has(pending)
          ? Promise.resolve<Attempt>({
              outcome: blocked.get(pending) as ToolCallOutcome,
              chunks: [],
            })
          : attemptCall(pending, spans.get(pending) as OpenSpan, options)
        ).then(({ outcome, chunks, paused }) => ({
          pending,
          outcome,
          chunks,
          endMs: state.clock.now(),
          ...(paused === undefined ? {} : { paused }),
        })),
      ),
    );
  } finally {
    for (const pending of round) views.get(pending)?.commit();
  }
}

/** Ends the spans an abort left open, so every start keeps its end. */
function closeInterruptedSpans(
  state: RunState,
  spans: ReadonlyMap<PendingCall, OpenSpan<'tool_start'>>,
): void {
  for (const [pending, span] of spans) {
    if (!state.tracer.isOpen(span)) continue;
    state.tracer.end(span, {
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

/** The results in the order asked: records and history, and the chunks (delegates', then `tool_response`). */
function deliverResults(
  { agent, conversation, resultMessage, state }: ToolPhase,
  inOrder: readonly PendingCall[],
  finished: ReadonlyMap<PendingCall, SettledCall>,
  /** What the model reads of each result, where the features' transforms changed it. */
  read: ReadonlyMap<PendingCall, string> | undefined,
): { records: ToolCallRecord[]; chunks: Chunk[] } {
  const records: ToolCallRecord[] = [];
  const chunks: Chunk[] = [];
  for (const pending of inOrder) {
    const { outcome, endMs, chunks: delegated } = finished.get(pending) as SettledCall;
    const { call } = pending;
    chunks.push(...delegated);
    const record: ToolCallRecord = {
      callId: call.callId,
      toolName: call.toolName,
      agent: agent.name,
      args: outcome.args,
      result: outcome.ok ? outcome.result : undefined,
      error: outcome.ok ? undefined : redactedMessage(outcome.error.message, state),
      durationMs: Math.max(0, endMs - pending.startMs),
      attempts: pending.attempt,
    };
    records.push(record);
    state.toolCalls.push(record);
    // What the model reads: the features may transform it (the trace's next llm_start records it).
    const content = read?.get(pending) ?? outcome.content;
    conversation.append(resultMessage(call, content, !outcome.ok));
    if (state.chunks.wanted)
      chunks.push(
        state.chunks.make('tool_response', agent.name, {
          callId: call.callId,
          toolName: call.toolName,
          result: record.result,
          error: record.error,
        }),
      );
  }
  return { records, chunks };
}

/** An error message as the run returns it: redacted, not counted. */
function redactedMessage(message: string, state: RunState): string {
  return state.redaction === undefined ? message : state.redaction.message(message);
}

/** What an attempt of a call works with: the phase's parts it reads, and the round's views. */
interface AttemptOptions {
  readonly agent: AnyAgent;
  readonly state: RunState;
  readonly path: readonly string[];
  /** A capturing view of the tracer for a delegate of this call. */
  readonly captured: (pending: PendingCall) => RunTracer;
  readonly hooks: Hooks;
  readonly at: TurnContext;
  readonly resumed?: ResumedPhase | undefined;
  readonly runAgent: AgentRunner;
}

/**
 * One attempt of one call, behind the features that hold tool calls; a delegated agent runs nested.
 * Not async itself, nor is an ordinary tool's attempt: each layer cost a tool call two promises. A
 * throw still becomes a rejection.
 */
function attemptCall(
  pending: PendingCall,
  toolSpan: OpenSpan,
  options: AttemptOptions,
): Promise<Attempt> {
  try {
    return delegatedOrTool(pending, toolSpan, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

function delegatedOrTool(
  pending: PendingCall,
  toolSpan: OpenSpan,
  options: AttemptOptions,
): Promise<Attempt> {
  const { agent, state, resumed } = options;
  const tool = agent.toolRegistry.get(pending.call.toolName);
  const delegation = tool === undefined ? undefined : delegationOf(tool);
  // Only a delegation's arguments are checked here; an ordinary tool's are checked as it runs.
  const checked =
    delegation !== undefined && pending.parsed.ok
      ? tool?.input.safeParse(pending.parsed.value)
      : undefined;
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
      state: withTracer(state, options.captured(pending)),
      ...(resumed?.delegate.callId === pending.call.callId
        ? { resumed: resumed.delegate.resumed }
        : {}),
      runAgent: options.runAgent,
    });
  }
  return attemptTool(agent, tool, options, pending, toolSpan);
}

/** One attempt of an ordinary tool, behind the features that hold it, inside its span's context. */
function attemptTool(
  agent: AnyAgent,
  /** The call's tool, as the agent's registry has it; undefined for a name it lacks. */
  tool: AnyTool | undefined,
  { hooks, at, state }: { hooks: Hooks; at: TurnContext; state: RunState },
  pending: PendingCall,
  toolSpan: OpenSpan,
): Promise<Attempt> {
  // What the features hold over the attempt (a circuit breaker may refuse it).
  const holds =
    tool === undefined || hooks.toolAttempts.length === 0
      ? undefined
      : hooks.holdToolAttempt(at.under(toolSpan, { tool, call: pending.call }));
  const error = refusalOf(holds);
  if (error !== undefined)
    return Promise.resolve({
      outcome: { ok: false, args: pending.args, error, content: error.message },
      chunks: [],
    });
  const executed = state.tracer.within(toolSpan, () =>
    executeToolCall({
      registry: agent.toolRegistry,
      call: pending.call,
      parsed: pending.parsed,
      agentName: agent.name,
      abortSignal: state.signal,
      clock: state.clock,
      traceHeaders: () => state.tracer.traceHeaders(toolSpan),
      recording: state.tracer.recording,
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
                  modelArgs: pending.args,
                },
                execute,
              ),
          }),
    }),
  );
  const settled = (outcome: ToolCallOutcome): Attempt => {
    settleHolds(holds, outcome);
    return { outcome, chunks: [] };
  };
  // Beside other parts, a result goes on in a task of its own, as a service's answer does.
  if (!state.tracer.sideBySide) return executed.then(settled);
  return executed.then(
    outcome => nextTask().then(() => settled(outcome)),
    (error: unknown) => nextTask().then(() => Promise.reject(error)),
  );
}
