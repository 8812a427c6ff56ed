import type { AnyAgent } from '../agent/agent.js';
import { RunAbortedError } from '../errors/abort-error.js';
import { ModelCallError } from '../errors/model-call-error.js';
import type { Message } from '../protocol/message.js';
import type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ToolDefinition,
} from '../model/language-model.js';
import { backoffDelayMs } from '../resilience/backoff.js';
import type { CircuitBreaker } from '../resilience/circuit-breaker.js';
import type { OpenSpan } from '../trace/run-tracer.js';
import { raceAbort } from '../util/abort.js';
import { sleepOn } from '../util/clock.js';
import type { Writable } from '../util/writable.js';
import type { Chunk } from '../protocol/chunk.js';
import type { TextSplitter } from '../react/react-splitter.js';
import { costOf, countCost, type CostTally } from '../cost/cost.js';
import type { Conversation } from './conversation.js';
import type { RunState } from './run-state.js';
import { streamModelResponse } from './stream-model-response.js';
import { breakerFor } from './circuit-breakers.js';
import { combineSignals, createDeadline, createIdleWatch } from './model-call-timers.js';
import { settleRateLimit, waitForRateLimit } from './rate-limit-gate.js';
import { toTraceError } from './to-trace-error.js';
import {
  llmEndFields,
  llmFailedFields,
  llmStartFields,
  type LlmIdentity,
  type RequestParts,
} from './llm-event-fields.js';

/** What one model call of the loop sends. */
export interface ModelCallInput {
  readonly agent: AnyAgent;
  /** 1-based model call number of the agent. */
  readonly step: number;
  readonly conversation: Conversation;
  /** What the model is shown: the whole conversation, or its memory window. */
  readonly messages: readonly Message[];
  /** What the model is told: the agent's instructions (in ReAct mode, with tools and format). */
  readonly instructions: string;
  readonly tools: readonly ToolDefinition[];
  /** Sent where the provider takes them (ReAct mode's `\nObservation:`). */
  readonly stopSequences?: readonly string[] | undefined;
  /** Splits streamed text into ReAct's parts; without it, all text is answer (`delta`). */
  readonly splitter?: (() => TextSplitter) | undefined;
  /** The calling agent's cost tally; each answered call's cost is counted into it and the run's. */
  readonly cost: CostTally;
  /** A hash of the whole request (instructions, tools, messages). */
  readonly requestHash: string;
  /** A hash of each part of the request, when the run is traced. */
  readonly requestParts?: RequestParts;
  readonly agentSpan: OpenSpan;
  /** Set in the final-output phase of an agent with an output schema. */
  readonly responseFormat?: ModelRequest['responseFormat'];
}

/**
 * Calls the agent's model for one step. Retryable failures (rate limits, timeouts, server errors,
 * a cut stream) are retried with exponential backoff and jitter, honouring `retry-after`, up to
 * `retry.modelAttempts`; then the fallback model, if any, gets the same. An open circuit breaker
 * refuses the call at once (and moves on to the fallback). Every attempt is an `llm_start` /
 * `llm_end` pair, every retry and fallback a `retry` event.
 */
export async function* callModel(
  input: ModelCallInput,
  state: RunState,
): AsyncGenerator<Chunk, ModelResponse, undefined> {
  const { agent, agentSpan } = input;
  const { resilience } = agent;
  const own =
    agent.fallbackModel === undefined ? [agent.model] : [agent.model, agent.fallbackModel];
  const override = state.overrides.model;
  const candidates = override === undefined ? own : own.map(model => override(agent, model));
  let failure: ModelCallError | undefined;
  for (const [index, model] of candidates.entries()) {
    const breaker = breakerFor(agent, model, state);
    for (let attempt = 1; attempt <= resilience.modelAttempts; attempt++) {
      const reservation = await waitForRateLimit(model, input, state);
      try {
        const response = yield* callOnce(model, attempt, breaker, input, state);
        settleRateLimit(reservation, { response }, state);
        breaker?.recordSuccess();
        return response;
      } catch (caught) {
        settleRateLimit(reservation, { error: caught }, state);
        if (!(caught instanceof ModelCallError)) throw caught;
        if (caught.kind !== 'circuit_open') breaker?.recordFailure(state.clock.now());
        failure = caught;
        if (!caught.isRetryable || attempt === resilience.modelAttempts) break;
        const delayMs = backoffDelayMs(attempt, resilience, state.random, caught.retryAfterMs);
        state.tracer.point('retry', agentSpan, {
          target: 'model',
          name: model.modelId,
          attempt: attempt + 1,
          delay_ms: delayMs,
          error: toTraceError(caught),
        });
        await sleepOn(state.clock, delayMs, state.signal);
      }
    }
    const fallback = candidates[index + 1];
    const canFallBack =
      failure !== undefined && (failure.isRetryable || failure.kind === 'circuit_open');
    if (fallback === undefined || !canFallBack) break;
    state.tracer.point('retry', agentSpan, {
      target: 'model',
      name: model.modelId,
      attempt: 1,
      delay_ms: 0,
      error: toTraceError(failure),
      fallback: fallback.modelId,
    });
  }
  throw failure ?? new ModelCallError({ kind: 'unknown', message: 'Model call failed.' });
}

/**
 * What an answered call cost (undefined: the model has no price), counted for the agent, the run
 * and a shared budget.
 */
function chargeCall(
  /** The model as the call's `llm_start` named it (a model may change its name afterwards). */
  { provider, model: modelId }: LlmIdentity,
  response: ModelResponse,
  input: ModelCallInput,
  state: RunState,
): number | undefined {
  const priced = state.prices.priceOf(provider, modelId);
  // An answer from a cache costs nothing, priced or not.
  const cost =
    response.cacheHit === true
      ? 0
      : priced === undefined
        ? undefined
        : costOf(response.usage, priced.price);
  countCost([input.cost, state.totals.cost], cost, `${provider}/${modelId}`);
  if (cost !== undefined) state.sharedBudget?.spend(cost);
  return cost;
}

/** The request of a model call, as the model gets it. */
function requestOf(input: ModelCallInput, abortSignal: AbortSignal | undefined): ModelRequest {
  const request: Writable<ModelRequest> = {
    instructions: input.instructions,
    messages: input.messages,
    tools: input.tools,
    agentName: input.agent.name,
  };
  if (abortSignal !== undefined) request.abortSignal = abortSignal;
  if (input.responseFormat !== undefined) request.responseFormat = input.responseFormat;
  if (input.stopSequences !== undefined) request.stopSequences = input.stopSequences;
  return request;
}

async function* callOnce(
  model: LanguageModel,
  attempt: number,
  breaker: CircuitBreaker | undefined,
  input: ModelCallInput,
  state: RunState,
): AsyncGenerator<Chunk, ModelResponse, undefined> {
  const { agent, step, conversation, agentSpan } = input;
  const { tracer } = state;
  const identity: LlmIdentity = {
    model: model.modelId,
    provider: model.provider,
    step,
    attempt: attempt > 1 || model.modelId !== agent.model.modelId ? attempt : undefined,
  };
  const llmSpan = tracer.start(
    'llm_start',
    agent.name,
    agentSpan,
    llmStartFields(identity, {
      messages: tracer.recording ? conversation.takeUnsent() : [],
      messageCount: input.messages.length,
      requestHash: input.requestHash,
      requestParts: input.requestParts,
      modelSettings: model.settings,
      finalOutput: input.responseFormat !== undefined,
    }),
  );
  const failed = (error: unknown) => llmFailedFields(identity, toTraceError(error));
  const deadline = createDeadline(agent.limits.modelTimeoutMs, model.modelId);
  const idle = state.streaming
    ? createIdleWatch(agent.limits.streamIdleTimeoutMs, model.modelId)
    : undefined;
  try {
    if (breaker !== undefined && !breaker.allows(state.clock.now())) {
      throw new ModelCallError({
        kind: 'circuit_open',
        isRetryable: false,
        message: `Model '${model.modelId}' was not called: its circuit breaker is open after ${breaker.options.failureThreshold} consecutive failures, and lets a call through again in ${breaker.retryInMs(state.clock.now())} ms.`,
      });
    }
    const request = requestOf(input, combineSignals(state.signal, deadline?.signal, idle?.signal));
    const response = state.streaming
      ? yield* streamModelResponse(model.stream(request), agent.name, state, {
          splitter: input.splitter?.(),
          deadline,
          idle,
        })
      : await raceAbort(
          deadline === undefined
            ? model.generate(request)
            : Promise.race([model.generate(request), deadline.expired]),
          state.signal,
        );
    tracer.end(
      llmSpan,
      llmEndFields(identity, response, chargeCall(identity, response, input, state)),
    );
    return response;
  } catch (caught) {
    tracer.end(llmSpan, failed(caught));
    throw caught;
  } finally {
    deadline?.clear();
    idle?.clear();
    if (tracer.isOpen(llmSpan)) {
      tracer.end(
        llmSpan,
        failed(new RunAbortedError({ reason: 'the stream consumer stopped reading' })),
      );
    }
  }
}
