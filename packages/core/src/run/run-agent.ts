import type { Agent } from '../agent/agent.js';
import { RunAbortedError } from '../errors/abort-error.js';
import { RunTimeoutError } from '../errors/run-timeout-error.js';
import type { StopLimit } from '../termination/termination-policy.js';
import { ToolCallLedger } from './tool-call-ledger.js';
import { AgentTraceError } from '../errors/agent-trace-error.js';
import { ModelCallError } from '../errors/model-call-error.js';
import type { ModelRequest, ModelResponse } from '../model/language-model.js';
import type { ToolCallRequest } from '../model/message.js';
import { addUsage, zeroUsage, type Usage } from '../model/usage.js';
import type { OpenSpan, RunTracer } from '../trace/run-tracer.js';
import type { TraceError } from '../trace/trace-event.js';
import { executeToolCall, parseToolArguments } from '../tool/execute-tool-call.js';
import { raceAbort, throwIfAborted } from '../util/abort.js';
import { hashString } from '../util/hash.js';
import type { Chunk } from './chunk.js';
import type { ChunkSequence } from './chunk-sequence.js';
import { Conversation } from './conversation.js';
import type { StepResult, ToolCallRecord } from './run-result.js';
import type { StopReason } from './stop-reason.js';
import { streamModelResponse } from './stream-model-response.js';

/** What one run shares between the agents that take part in it. */
export interface RunState {
  readonly tracer: RunTracer;
  readonly chunks: ChunkSequence;
  readonly signal: AbortSignal | undefined;
  readonly streaming: boolean;
  readonly steps: StepResult[];
  readonly toolCalls: ToolCallRecord[];
  usage: Usage;
}

/** How one agent's turn in a run ended. */
export interface AgentOutcome {
  readonly stopReason: StopReason;
  readonly output: string;
  readonly error: Error | undefined;
  readonly conversation: Conversation;
  /** The limit that stopped the agent, when one did. */
  readonly limit: StopLimit | undefined;
  /** Why the agent stopped, for people. */
  readonly detail: string | undefined;
}

/**
 * Runs one agent until it answers without tool calls or hits a limit: model call → tool calls
 * (in parallel, results in the order asked) → model call … Yields the run's chunks; every span it
 * opens is closed, also when the model fails, the run is aborted or the consumer stops reading.
 */
export async function* runAgent(
  agent: Agent,
  input: string,
  parent: OpenSpan,
  state: RunState,
): AsyncGenerator<Chunk, AgentOutcome, undefined> {
  const { tracer, chunks } = state;
  const { model } = agent;
  const registry = agent.toolRegistry;
  const conversation = new Conversation(
    hashString(JSON.stringify([agent.instructions, registry.definitions])),
  );
  conversation.append({ role: 'user', content: input });
  const agentSpan = tracer.start('agent_start', agent.name, parent, {
    model: model.modelId,
    provider: model.provider,
    instructions: agent.instructions,
    tools: registry.definitions.map(definition => definition.name),
    max_steps: agent.limits.maxSteps,
  });
  let stopReason: StopReason | undefined;
  let output = '';
  let error: Error | undefined;
  let limit: AgentOutcome['limit'];
  let detail: string | undefined;
  const ledger = new ToolCallLedger();
  let agentSteps = 0;
  let agentUsage = zeroUsage;
  try {
    for (;;) {
      if (agentSteps >= agent.limits.maxSteps) {
        stopReason = 'max_steps';
        limit = { name: 'maxSteps', value: agent.limits.maxSteps };
        detail = `the agent made ${agentSteps} model calls and still asked for tools; ${agent.limits.maxSteps} allowed`;
        break;
      }
      throwIfAborted(state.signal);
      agentSteps++;
      const response = yield* callModel(agent, agentSteps, conversation, agentSpan, state);
      agentUsage = addUsage(agentUsage, response.usage);
      state.usage = addUsage(state.usage, response.usage);
      output = response.text;
      if (!state.streaming && response.text !== '') {
        yield chunks.make('delta', agent.name, { text: response.text });
      }
      yield chunks.make('usage', agent.name, response.usage);
      conversation.append({
        role: 'assistant',
        content: response.text,
        toolCalls: response.toolCalls,
      });
      const step: StepResult = {
        index: state.steps.length + 1,
        agent: agent.name,
        text: response.text,
        toolCalls: [],
        finishReason: response.finishReason,
        usage: response.usage,
      };
      state.steps.push(step);
      const decision = agent.terminationPolicy.decide(
        response,
        ledger.context(agentSteps, state.usage),
      );
      if (decision.kind === 'finish') {
        stopReason = 'completed';
        output = decision.output;
        break;
      }
      if (decision.kind === 'stop') {
        ({ reason: stopReason, detail, limit } = decision);
        break;
      }
      const records = yield* runToolCalls(
        agent,
        decision.toolCalls,
        conversation,
        agentSpan,
        state,
      );
      (step.toolCalls as ToolCallRecord[]).push(...records);
      ledger.record(decision.toolCalls);
      const condition = agent.stopWhen.findIndex(stop =>
        stop({ steps: state.steps, toolCalls: state.toolCalls, usage: state.usage }),
      );
      if (condition !== -1) {
        stopReason = 'completed';
        detail = `stopWhen condition ${condition} returned true after step ${agentSteps}`;
        break;
      }
    }
  } catch (caught) {
    error = caught instanceof Error ? caught : new Error(String(caught));
    stopReason = isAbort(caught, state.signal) ? interruptionReason(state.signal) : 'error';
    if (stopReason === 'timeout') error = state.signal?.reason as RunTimeoutError;
    const { type, message } = toTraceError(caught);
    yield chunks.make('error', agent.name, { kind: type, message });
  } finally {
    if (stopReason === undefined) {
      stopReason = 'aborted';
      error = consumerStopped();
    }
    tracer.end(agentSpan, {
      stop_reason: stopReason,
      steps: agentSteps,
      tok_prompt: agentUsage.promptTokens,
      tok_completion: agentUsage.completionTokens,
      tool_calls: ledger.total,
      output,
      ...(error === undefined ? {} : { error: toTraceError(error) }),
      ...(limit === undefined ? {} : { limit }),
      ...(detail === undefined ? {} : { detail }),
    });
  }
  return { stopReason, output, error, conversation, limit, detail };
}

async function* callModel(
  agent: Agent,
  step: number,
  conversation: Conversation,
  agentSpan: OpenSpan,
  state: RunState,
): AsyncGenerator<Chunk, ModelResponse, undefined> {
  const { tracer } = state;
  const { model } = agent;
  const identity = { model: model.modelId, provider: model.provider, step };
  const request: ModelRequest = {
    instructions: agent.instructions,
    messages: conversation.messages,
    tools: agent.toolRegistry.definitions,
    agentName: agent.name,
    ...(state.signal === undefined ? {} : { abortSignal: state.signal }),
  };
  const llmSpan = tracer.start('llm_start', agent.name, agentSpan, {
    ...identity,
    messages: conversation.takeUnsent(),
    message_count: conversation.messages.length,
    request_hash: conversation.requestHash,
  });
  const failed = (error: unknown) => ({
    ...identity,
    tok_prompt: 0,
    tok_completion: 0,
    error: toTraceError(error),
  });
  try {
    const response = state.streaming
      ? yield* streamModelResponse(model.stream(request), agent.name, state)
      : await raceAbort(model.generate(request), state.signal);
    tracer.end(llmSpan, {
      ...identity,
      text: response.text,
      tool_calls: response.toolCalls.map(call => ({
        call_id: call.callId,
        tool: call.toolName,
        arguments: call.argumentsText,
      })),
      finish_reason: response.finishReason,
      tok_prompt: response.usage.promptTokens,
      tok_completion: response.usage.completionTokens,
    });
    return response;
  } catch (caught) {
    tracer.end(llmSpan, failed(caught));
    throw caught;
  } finally {
    if (tracer.isOpen(llmSpan)) tracer.end(llmSpan, failed(interruption(state.signal)));
  }
}

async function* runToolCalls(
  agent: Agent,
  calls: readonly ToolCallRequest[],
  conversation: Conversation,
  agentSpan: OpenSpan,
  state: RunState,
): AsyncGenerator<Chunk, ToolCallRecord[], undefined> {
  const { tracer, chunks } = state;
  const started = [];
  for (const call of calls) {
    const parsed = parseToolArguments(call.argumentsText);
    const args = parsed.ok ? parsed.value : call.argumentsText;
    const span = tracer.start('tool_start', agent.name, agentSpan, {
      tool: call.toolName,
      call_id: call.callId,
      args,
    });
    started.push({ call, parsed, args, span });
    yield chunks.make('tool_call', agent.name, {
      callId: call.callId,
      toolName: call.toolName,
      args,
    });
  }
  try {
    const settled = await Promise.all(
      started.map(entry =>
        executeToolCall({
          registry: agent.toolRegistry,
          call: entry.call,
          parsed: entry.parsed,
          agentName: agent.name,
          abortSignal: state.signal,
        }).then(outcome => ({ ...entry, outcome, endMs: tracer.now() })),
      ),
    );
    const records: ToolCallRecord[] = [];
    for (const { call, span, outcome, endMs } of settled) {
      const error = outcome.ok ? undefined : outcome.error;
      tracer.end(
        span,
        {
          tool: call.toolName,
          call_id: call.callId,
          args: outcome.args,
          ...(outcome.ok
            ? { result: outcome.result }
            : { error: { type: outcome.error.kind, message: outcome.error.message } }),
          attempt: 1,
        },
        endMs,
      );
      const record: ToolCallRecord = {
        callId: call.callId,
        toolName: call.toolName,
        agent: agent.name,
        args: outcome.args,
        result: outcome.ok ? outcome.result : undefined,
        error: error?.message,
        durationMs: Math.max(0, endMs - span.startMs),
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
      yield chunks.make('tool_response', agent.name, {
        callId: call.callId,
        toolName: call.toolName,
        result: record.result,
        error: record.error,
      });
    }
    return records;
  } finally {
    for (const { call, args, span } of started) {
      if (!tracer.isOpen(span)) continue;
      tracer.end(span, {
        tool: call.toolName,
        call_id: call.callId,
        args,
        error: toTraceError(interruption(state.signal)),
        attempt: 1,
      });
    }
  }
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return error instanceof RunAbortedError || signal?.aborted === true;
}

/** `timeout` when the run's own timer fired, `aborted` for any other abort. */
function interruptionReason(signal: AbortSignal | undefined): StopReason {
  return signal?.reason instanceof RunTimeoutError ? 'timeout' : 'aborted';
}

function consumerStopped(): RunAbortedError {
  return new RunAbortedError({ reason: 'the stream consumer stopped reading' });
}

function interruption(signal: AbortSignal | undefined): RunAbortedError {
  return signal?.aborted === true
    ? new RunAbortedError({ reason: signal.reason })
    : consumerStopped();
}

/** An error as the trace and the `error` chunk record it. */
export function toTraceError(error: unknown): TraceError {
  if (error instanceof RunTimeoutError) return { type: 'timeout', message: error.message };
  if (error instanceof RunAbortedError) {
    if (error.cause instanceof RunTimeoutError)
      return { type: 'timeout', message: error.cause.message };
    return { type: 'aborted', message: error.message };
  }
  if (error instanceof ModelCallError) return { type: error.kind, message: error.message };
  if (AgentTraceError.isInstance(error)) return { type: error.name, message: error.message };
  if (error instanceof Error) return { type: error.name, message: error.message };
  return { type: 'unknown', message: String(error) };
}
