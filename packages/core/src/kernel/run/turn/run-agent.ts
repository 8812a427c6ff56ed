import { paceStep } from '../frame/pace-step.js';
import type { AnyAgent } from '../../agent/agent.js';
import { RunAbortedError } from '../../errors/abort-error.js';
import { RunTimeoutError } from '../../errors/run-timeout-error.js';
import type { ResolvedHandoff } from '../../agent/handoff.js';
import { windowedMessages } from './recent-messages.js';
import type { ModelResponse } from '../../model/language-model.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { ReActRecord, StepResult, ToolCallRecord } from '../../protocol/records.js';
import type { StopReason } from '../../protocol/stop-reason.js';
import type { OpenSpan } from '../../trace/run-tracer.js';
import { throwIfAborted } from '../../util/abort.js';
import { hashString } from '../../util/hash.js';
import type { AgentOutcome, AgentStart, PausedTurn } from './agent-outcome.js';
import { AgentTurn } from './agent-turn.js';
import { callModel } from './call-model.js';
import type { ModelCallInput } from './model-call-input.js';
import { chooseRoute } from './choose-route.js';
import { calledModel } from '../seam/feature-context.js';
import { decodeRetryRequest, finalOutputRequest } from './decode-output.js';
import { runHandoff } from '../handoffs/run-handoff.js';
import { actOnHandoff, handoffInput, takeHandoffResult } from '../handoffs/act-on-handoff.js';
import {
  decideNextStep,
  stepLimitStop,
  stopConditionStop,
  type DecisionInput,
  type NextStep,
  type Stop,
  type ToolStep,
} from './next-step.js';
import type { ModelCallRequest } from '../seam/feature-hooks.js';
import { preambleFor, requestParts } from './preamble.js';
import type { RunState } from '../frame/run-state.js';
import {
  announcedCalls,
  planToolCalls,
  runToolCalls,
  type ResumedPhase,
} from '../tools/run-tool-calls.js';
import { toTraceError } from '../frame/to-trace-error.js';
import { pauseForApprovals, resumeTurn } from '../pause/resume-turn.js';
import type { AnswerReading } from './tool-calling.js';
import type { Writable } from '../../util/writable.js';

/**
 * Runs one agent until its turn ends: prepare → call the model → decide the next step → act, again
 * and again. Yields the run's chunks; every span it opens is closed, also when the model fails,
 * the run is aborted or the consumer stops reading.
 */
export async function* runAgent(
  agent: AnyAgent,
  start: AgentStart,
  parent: OpenSpan,
  state: RunState,
): AsyncGenerator<Chunk, AgentOutcome, undefined> {
  const turn = new AgentTurn(agent, start, parent, state);
  try {
    if (start.resumed === undefined) yield* beginTurn(turn);
    else yield* resumeStep(turn, start.resumed);
    // One step a loop: prepare (the step limit), call the model, decide, act. Written out here,
    // not as a generator of its own: every generator layer costs each step a few promise hops.
    while (!turn.stopped) {
      const limit = stepLimitStop(turn.steps, agent.limits.maxSteps);
      if (limit !== undefined) {
        turn.stop(limit);
        break;
      }
      throwIfAborted(state.signal);
      let call = modelCallFor(turn, turn.steps + 1);
      const paced = paceStep(state, turn.agentSpan, 'model_call', call.step);
      if (paced !== undefined) await paced;
      // Features may change the request, then stop the turn before the call (a cost limit).
      const checked =
        turn.hooks.beforeModelCalls.length === 0 && turn.hooks.transforms.requests.length === 0
          ? call
          : await checkedCall(turn, call);
      state.tracer.decided(turn.agentSpan);
      if (!('agent' in checked)) {
        turn.stop(checked);
        break;
      }
      call = checked;
      turn.steps++;
      let response = yield* callModel(call, state);
      if (turn.hooks.transforms.answers.length > 0)
        response = await turn.hooks.transforms.answer(
          turn.at.with({ response }),
          turn.at.transformed,
        );
      // The final-output phase asks for JSON, not a ReAct step.
      const reading = turn.finalPhase ? { response } : turn.mode.read(response, agent, turn.steps);
      const step = recordResponse(turn, response, reading);
      if (state.chunks.wanted) yield state.chunks.make('usage', agent.name, response.usage);
      // The features' checks of the tools asked for (a cost limit spent, calls awaiting approval).
      const checking = paceStep(state, turn.agentSpan, 'checks', turn.steps);
      if (checking !== undefined) await checking;
      let checks =
        turn.hooks.toolChecks.length === 0
          ? undefined
          : turn.hooks.checks(turn.at.with({ response: reading.response }));
      if (checks instanceof Promise) checks = await checks;
      state.tracer.decided(turn.agentSpan);
      const next = decideNextStep(decisionInput(turn, reading, checks));
      // Only running tools yields chunks: the other steps are carried out without a generator.
      if (next.kind === 'run_tools') yield* actOnTools(turn, next, step);
      else await act(turn, next);
    }
    // A stop that is not a completion ends the agent's chunks with an `error` chunk (a thrown
    // failure gets one below), so a stream consumer learns why without reading the trace.
    if (turn.handedOff === undefined && turn.stopReason !== 'completed' && state.chunks.wanted)
      yield state.chunks.make('error', agent.name, stopChunk(turn));
  } catch (caught) {
    yield* failTurn(turn, caught);
  } finally {
    if (turn.stopReason === undefined) {
      turn.stopReason = 'aborted';
      turn.error = new RunAbortedError({ reason: 'the stream consumer stopped reading' });
    }
    state.tracer.end(turn.agentSpan, turn.endFields());
  }
  return turn.outcome();
}

/** A resumed turn first runs the step it paused on, with the people's decisions. */
async function* resumeStep(
  turn: AgentTurn,
  { turn: paused, decisions }: NonNullable<AgentStart['resumed']>,
): AsyncGenerator<Chunk, void, undefined> {
  const { step, phase } = resumeTurn(turn, paused, decisions);
  const record = turn.state.steps.find(result => result.index === paused.stepIndex);
  yield* actOnTools(turn, step, record as StepResult, phase);
}

/** Before the first model call: the input guardrails, then a router's choice. */
async function* beginTurn(turn: AgentTurn): AsyncGenerator<Chunk, void, undefined> {
  const { agent, start, state } = turn;
  // A feature may stop the turn on its input (an input guardrail).
  const blocked =
    start.input === undefined || turn.hooks.beforeTurns.length === 0
      ? undefined
      : await turn.hooks.beforeTurn(turn.at.with({ input: start.input }));
  if (blocked !== undefined) {
    turn.stop(blocked);
    return;
  }
  if (agent.router === undefined) return;
  const choice = yield* chooseRoute({
    router: agent,
    spec: agent.router,
    input: start.input ?? '',
    conversation: turn.conversation,
    requestHash: state.tracer.recording ? turn.conversation.requestHash(turn.preamble.hash) : '',
    agentSpan: turn.agentSpan,
    cost: turn.cost,
    state,
    hooks: turn.hooks,
    at: turn.at,
  });
  if ('problem' in choice) {
    turn.stop({ reason: 'error', detail: choice.problem });
    turn.error = new Error(choice.problem);
    return;
  }
  const route = agent.handoffs().find(handoff => handoff.agent.name === choice.agentName);
  takeHandoffResult(
    turn,
    yield* runHandoff(handoffInput(turn, route as ResolvedHandoff, { route: choice }, runAgent)),
  );
}

/** What the decision of a step needs: the response as read, and the turn so far. */
function decisionInput(
  turn: AgentTurn,
  { response, malformed }: AnswerReading,
  checks: DecisionInput['checks'],
): DecisionInput {
  const { agent, state } = turn;
  return {
    response,
    ...(malformed === undefined ? {} : { malformed }),
    ...(checks === undefined || checks.length === 0 ? {} : { checks }),
    malformedAnswers: turn.malformedAnswers,
    maxMalformedAnswers: agent.limits.maxMalformedAnswers,
    finalPhase: turn.finalPhase,
    schema: agent.output,
    decodeRetries: turn.decodeRetries,
    maxDecodeRetries: agent.limits.maxDecodeRetries,
    policy: agent.terminationPolicy,
    context: turn.ledger.context(turn.steps, state.totals.usage),
    unavailableTools: turn.unavailableTools,
    handoffTools: turn.handoffTools,
  };
}

/** The model call of this step: the window of the conversation the model may see, and hashes. */
function modelCallFor(turn: AgentTurn, step: number): ModelCallInput {
  const { agent, state, conversation, preamble, finalPhase, responseFormat } = turn;
  const recording = state.tracer.recording;
  const preambleHash = finalPhase
    ? hashString(`${preamble.hash}\nfinal:${JSON.stringify(responseFormat)}`)
    : preamble.hash;
  const window = agent.memory.window;
  const shown =
    window === undefined
      ? conversation.messages
      : windowedMessages(conversation.messages, window, turn.inputIndex);
  return {
    agent,
    step,
    conversation,
    messages: shown,
    instructions: preamble.instructions,
    tools: finalPhase ? [] : preamble.requestTools,
    stopSequences: preamble.stopSequences,
    // The final-output phase's JSON is all answer, not ReAct parts.
    splitter: finalPhase ? undefined : turn.mode.splitter,
    cost: turn.cost,
    // Only a trace shows the hash. A windowed request is hashed whole (bounded by the window);
    // otherwise the rolling hash.
    requestHash: !recording
      ? ''
      : window === undefined
        ? conversation.requestHash(preambleHash)
        : conversation.windowHash(preambleHash, shown),
    ...(recording
      ? {
          requestParts: requestParts(
            preamble,
            window === undefined
              ? conversation.messagesHash()
              : conversation.windowMessagesHash(shown),
            finalPhase ? responseFormat : undefined,
          ),
        }
      : {}),
    agentSpan: turn.agentSpan,
    hooks: turn.hooks,
    at: turn.at,
    ...(finalPhase && responseFormat !== undefined ? { responseFormat } : {}),
  };
}

/**
 * The model call after the features' transforms of its request, or the stop a feature gives
 * before it (checked on the request as it will be sent).
 */
async function checkedCall(turn: AgentTurn, call: ModelCallInput): Promise<ModelCallInput | Stop> {
  const { hooks, at } = turn;
  const model = calledModel(turn.agent, turn.state);
  let request: ModelCallRequest = {
    instructions: call.instructions,
    messages: call.messages,
    tools: call.tools,
  };
  if (hooks.transforms.requests.length > 0) {
    const made = request;
    request = await hooks.transforms.request(at.with({ model, request }), at.transformed);
    if (request !== made) call = { ...call, transformed: request };
  }
  if (hooks.beforeModelCalls.length === 0) return call;
  return (await hooks.beforeModelCall(at.with({ model, request }))) ?? call;
}

/**
 * Counts the response and adds it to the history and the steps. A malformed ReAct answer is
 * counted and traced, with what the LLM will be told.
 */
function recordResponse(
  turn: AgentTurn,
  response: ModelResponse,
  reading: AnswerReading,
): StepResult {
  const { agent, state } = turn;
  turn.addUsage(response.usage);
  if (turn.hooks.afterModelCalls.length > 0) turn.hooks.afterModelCall(turn.at.with({ response }));
  const { malformed, record } = reading;
  // In ReAct mode only a Final Answer is output: an Action or a malformed answer is protocol
  // text (kept in the trace), so a run stopped after one keeps the last Final Answer, if any.
  if (record === undefined || record.finalAnswer !== undefined) turn.output = reading.response.text;
  turn.conversation.append(turn.mode.assistantMessage(response));
  if (malformed !== undefined) {
    turn.malformedAnswers++;
    state.tracer.point('malformed_answer', turn.agentSpan, {
      ...malformed,
      count: turn.malformedAnswers,
      step: turn.steps,
    });
  }
  const step: StepResult = {
    index: state.steps.length + 1,
    agent: agent.name,
    text: response.text,
    toolCalls: [],
    finishReason: response.finishReason,
    usage: response.usage,
    ...(record === undefined ? {} : { react: record }),
  };
  state.steps.push(step);
  return step;
}

/** Carries out a decided step other than running tools. */
async function act(turn: AgentTurn, next: Exclude<NextStep, { kind: 'run_tools' }>): Promise<void> {
  switch (next.kind) {
    case 'final_output':
      return finish(turn, next.text, next.decoded);
    case 'ask_final_output':
      turn.finalPhase = true;
      turn.conversation.append({
        role: 'user',
        content: finalOutputRequest(
          (turn.responseFormat as { schema: Record<string, unknown> }).schema,
        ),
      });
      return;
    case 'retry_decode':
      turn.decodeRetries++;
      turn.conversation.append({ role: 'user', content: decodeRetryRequest(next.problem) });
      return;
    case 'retry_malformed':
      turn.conversation.append(turn.mode.correction(next.message));
      return;
    case 'interrupt':
      if (next.approvals !== undefined) pauseForApprovals(turn, next.approvals);
      return turn.stop({ reason: 'interrupted', detail: `the run waits: ${next.reason}` });
    case 'stop':
      return turn.stop(next);
  }
}

/**
 * Ends the turn with `text` as the answer, unless a feature withholds it. An answer
 * given without a tool that was declared unavailable is a degraded one, and says so.
 */
async function finish(
  turn: AgentTurn,
  text: string,
  decoded?: { readonly value: unknown },
): Promise<void> {
  // A feature may withhold the answer (an output guardrail): the turn ends without it.
  const { hooks } = turn;
  const withheld =
    hooks.beforeAnswers.length === 0 ? undefined : await hooks.beforeAnswer(turn.at.with({ text }));
  if (withheld !== undefined) {
    turn.output = '';
    turn.stop(withheld);
    return;
  }
  turn.output = text;
  if (decoded !== undefined) turn.structured = decoded.value;
  if (turn.unavailableTools.size === 0) {
    turn.stopReason = 'completed';
    turn.detail = undefined;
    return;
  }
  const tools = [...turn.unavailableTools].map(name => `'${name}'`).join(', ');
  turn.stop({
    reason: 'tool_failure_degraded',
    detail: `answered without ${tools}, declared unavailable after ${turn.agent.resilience.toolRetries + 1} failed attempts`,
  });
}

/** Runs the step's tools, then its handoff, if any; then the `stopWhen` conditions. */
async function* actOnTools(
  turn: AgentTurn,
  next: Extract<NextStep, { kind: 'run_tools' }>,
  step: StepResult,
  resumed?: ResumedPhase,
): AsyncGenerator<Chunk, void, undefined> {
  const { agent, state } = turn;
  // A step paused inside a delegate was counted before the pause.
  if (resumed === undefined) turn.ledger.record(next.asked);
  const degradedBefore = turn.unavailableTools.size;
  if (next.toolCalls.length > 0) {
    const phase = {
      agent,
      calls: next.toolCalls,
      conversation: turn.conversation,
      resultMessage: turn.mode.resultMessage,
      thought: step.react?.thought,
      agentSpan: turn.agentSpan,
      state,
      hooks: turn.hooks,
      at: turn.at,
      unavailableTools: turn.unavailableTools,
      path: turn.start.path,
      resumed,
      runAgent,
    };
    const planned = planToolCalls(phase);
    for (const chunk of announcedCalls(phase, planned)) yield chunk;
    const { result, chunks } = await runToolCalls(phase, planned);
    for (const chunk of chunks) yield chunk;
    const { records, paused } = result;
    if (paused !== undefined) return pauseInDelegate(turn, next, step, paused);
    (step.toolCalls as ToolCallRecord[]).push(...records);
    // In ReAct mode the step's one action was just answered: its observation is the last message.
    if (step.react !== undefined)
      (step.react as Writable<ReActRecord>).observation =
        turn.conversation.messages.at(-1)?.content;
  }
  if (turn.unavailableTools.size !== degradedBefore)
    turn.preamble = preambleFor(agent, turn.unavailableTools, turn.mode);
  if (next.handoff !== undefined) return yield* actOnHandoff(turn, next.handoff, runAgent);
  const stop = stopConditionStop(
    agent.stopWhen,
    { steps: state.steps, toolCalls: state.toolCalls, usage: state.totals.usage },
    turn.steps,
  );
  if (stop !== undefined) turn.stop(stop);
}

/** A delegated agent paused for approval: this turn pauses with it, on the same step. */
function pauseInDelegate(
  turn: AgentTurn,
  next: ToolStep,
  step: StepResult,
  delegate: NonNullable<PausedTurn['delegate']>,
): void {
  turn.pause(delegate.turn.pending, next, step.index, { delegate });
  const names = delegate.turn.pending.map(approval => `'${approval.toolName}'`).join(', ');
  turn.stop({
    reason: 'interrupted',
    detail: `the run waits: agent '${delegate.turn.agent}' needs a person's approval of ${names}`,
  });
}

/** A failure or an abort ends the turn: `error`, `aborted` or `timeout`, with an `error` chunk. */
function* failTurn(turn: AgentTurn, caught: unknown): Generator<Chunk, void, undefined> {
  const { state } = turn;
  turn.error = caught instanceof Error ? caught : new Error(String(caught));
  turn.stopReason = isAbort(caught, state.signal) ? interruptionReason(state.signal) : 'error';
  if (turn.stopReason === 'timeout') turn.error = state.signal?.reason as RunTimeoutError;
  const { type, message } = toTraceError(turn.error);
  if (state.chunks.wanted)
    yield state.chunks.make('error', turn.agent.name, { kind: type, message });
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return error instanceof RunAbortedError || signal?.aborted === true;
}

/** `timeout` when the run's own timer fired, `aborted` for any other abort. */
function interruptionReason(signal: AbortSignal | undefined): StopReason {
  return signal?.reason instanceof RunTimeoutError ? 'timeout' : 'aborted';
}

function stopChunk(turn: AgentTurn) {
  const reason = turn.stopReason as StopReason;
  return { kind: reason, message: turn.detail ?? `the run stopped: ${reason}` };
}
