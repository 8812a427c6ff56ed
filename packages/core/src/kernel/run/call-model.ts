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
import { backoffDelayMs } from '../util/backoff.js';
import type { OpenSpan } from '../trace/run-tracer.js';
import { raceAbort } from '../util/abort.js';
import { sleepOn } from '../util/clock.js';
import type { Writable } from '../util/writable.js';
import type { Chunk } from '../protocol/chunk.js';
import type { TextSplitter } from './text-splitter.js';
import { countCost, type CostTally } from '../protocol/cost-tally.js';
import { countedUsage } from '../protocol/usage.js';
import type { FeatureContext, ModelAttemptHold } from './feature.js';
import { refusalOf, settleHolds, type Holds, type Hooks } from './seam.js';
import type { Conversation } from './conversation.js';
import type { RunState } from './run-state.js';
import { StreamTiming, streamModelResponse } from './stream-model-response.js';
import { callLimits } from './model-call-timers.js';
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
  /** The hooks of the run's features that take part in the agent's turns. */
  readonly hooks: Hooks;
  /** What those hooks see of the agent's turn. */
  readonly at: FeatureContext;
  /** Set in the final-output phase of an agent with an output schema. */
  readonly responseFormat?: ModelRequest['responseFormat'];
}

/**
 * Calls the agent's model for one step. Retryable failures (rate limits, timeouts, server errors,
 * a cut stream) are retried with exponential backoff and jitter, honouring `retry-after`, up to
 * `retry.modelAttempts`; then the fallback model, if any, gets the same. An open circuit breaker
 * (a feature holding the attempt) refuses the call at once (and moves on to the fallback). Every attempt is an `llm_start` /
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
  const { hooks } = input;
  const redirected = hooks.redirectsModels ? own.map(model => hooks.model(agent, model)) : own;
  const candidates =
    override === undefined ? redirected : redirected.map(model => override(agent, model));
  let failure: ModelCallError | undefined;
  for (const [index, model] of candidates.entries()) {
    for (let attempt = 1; attempt <= resilience.modelAttempts; attempt++) {
      // What the features hold over the attempt (a rate limit's place, a circuit breaker).
      let holds =
        hooks.modelAttempts.length === 0
          ? undefined
          : hooks.holdModelAttempt(input.at, model, input);
      if (holds instanceof Promise) holds = await holds;
      try {
        const response = yield* callOnce(model, attempt, holds, input, state);
        settleHolds(holds, { response });
        return response;
      } catch (caught) {
        settleHolds(holds, { error: caught });
        if (!(caught instanceof ModelCallError)) throw caught;
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

/** Counts an answered call's cost (undefined: the model has no price) for the agent and the run. */
function chargeCall(
  /** The model as the call's `llm_start` named it (a model may change its name afterwards). */
  identity: LlmIdentity,
  response: ModelResponse,
  input: ModelCallInput,
  state: RunState,
): number | undefined {
  const cost = input.hooks.price(identity, response);
  countCost([input.cost, state.totals.cost], cost, `${identity.provider}/${identity.model}`);
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
  holds: Holds<ModelAttemptHold>,
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
      streamed: state.streaming,
      server: model.server,
    }),
  );
  const timing = state.streaming ? new StreamTiming(state.clock) : undefined;
  const failed = (error: unknown) => llmFailedFields(identity, toTraceError(error));
  const limits = callLimits(agent.limits, state.streaming, model.modelId, state.signal);
  const { deadline, idle } = limits;
  try {
    const refusal = refusalOf(holds);
    if (refusal !== undefined) throw refusal;
    const request = requestOf(input, limits.signal);
    const answer = state.streaming
      ? yield* streamModelResponse(model.stream(request), agent.name, state, {
          splitter: input.splitter?.(),
          deadline,
          idle,
          timing,
        })
      : await raceAbort(
          deadline === undefined
            ? model.generate(request)
            : Promise.race([model.generate(request), deadline.expired]),
          state.signal,
        );
    const usage = countedUsage(answer.usage);
    const response = usage === answer.usage ? answer : { ...answer, usage };
    tracer.end(
      llmSpan,
      llmEndFields(identity, response, chargeCall(identity, response, input, state), timing),
    );
    return response;
  } catch (caught) {
    tracer.end(llmSpan, failed(caught));
    throw caught;
  } finally {
    limits.clear();
    if (tracer.isOpen(llmSpan)) {
      tracer.end(
        llmSpan,
        failed(new RunAbortedError({ reason: 'the stream consumer stopped reading' })),
      );
    }
  }
}
