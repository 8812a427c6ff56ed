import type { LanguageModel, ModelRequest, ModelResponse } from '../../model/language-model.js';
import { RunAbortedError } from '../../errors/abort-error.js';
import type { Chunk } from '../../protocol/chunk.js';
import { countCost } from '../../protocol/cost-tally.js';
import { countedUsage } from '../../protocol/usage.js';
import type { OpenSpan } from '../../trace/run-tracer.js';
import { raceAbort } from '../../util/abort.js';
import type { Writable } from '../../util/writable.js';
import type { ModelCallInput } from './model-call-input.js';
import type { ModelAttemptHold } from '../seam/feature.js';
import type { SentRequestListener } from './sent-probe.js';
import { sentRequest, type SentParts } from './sent-request.js';
import {
  llmEndFields,
  llmFailedFields,
  llmStartFields,
  type LlmIdentity,
} from './llm-event-fields.js';
import { callLimits, type CallLimits } from './model-call-timers.js';
import type { RunState } from '../frame/run-state.js';
import { refusalOf, type Holds } from '../seam/seam.js';
import { StreamTiming, streamModelResponse } from './stream-model-response.js';
import { toTraceError } from '../frame/to-trace-error.js';

/**
 * One attempt of a model call: its `llm_start` / `llm_end` span and its time limits. The caller
 * gets the answer (in one piece, or streamed chunk by chunk) between {@link ModelAttempt.request}
 * and {@link ModelAttempt.answered} or {@link ModelAttempt.failed}, and always calls
 * {@link ModelAttempt.close}: a span the attempt left open (the stream's consumer stopped reading)
 * ends there.
 */
export class ModelAttempt implements SentRequestListener {
  readonly #identity: LlmIdentity;
  #span: OpenSpan<'llm_start'> | undefined;
  readonly #timing: StreamTiming | undefined;
  readonly #limits: CallLimits;
  /** The request the features' transforms made, when they changed the loop's. */
  readonly #made: SentParts | undefined;

  /**
   * @param probed - a feature wraps the model and a probe under it tells what the model was sent:
   *   `llm_start` is written then (or when the attempt ends without it), not now.
   */
  constructor(
    private readonly model: LanguageModel,
    attempt: number,
    private readonly input: ModelCallInput,
    private readonly state: RunState,
    probed = false,
  ) {
    const { agent, step } = input;
    this.#identity = {
      model: model.modelId,
      provider: model.provider,
      step,
      attempt: attempt > 1 || model.modelId !== agent.model.modelId ? attempt : undefined,
    };
    this.#made =
      input.transformed === undefined
        ? undefined
        : { ...input.transformed, stopSequences: input.stopSequences };
    if (!probed) this.#start(this.#made);
    this.#timing = state.streaming ? new StreamTiming(state.clock) : undefined;
    this.#limits = callLimits(
      agent.limits,
      { streaming: state.streaming, modelId: model.modelId, clock: state.clock },
      state.signal,
    );
  }

  /** The model under the features' wrappers was sent `request`: `llm_start` records it. */
  sent(request: ModelRequest): void {
    if (this.#span === undefined) this.#start(request);
  }

  /** Writes `llm_start`: of the request the model was sent, or the one the loop made. */
  #start(sent: SentParts | undefined): OpenSpan<'llm_start'> {
    const { input, state } = this;
    const { tracer } = state;
    const request = sentRequest(input, tracer.recording, sent);
    this.#span = tracer.start(
      'llm_start',
      input.agent.name,
      input.agentSpan,
      llmStartFields(this.#identity, {
        messages: request.messages,
        kept: request.kept,
        fromHistory: request.fromHistory,
        messageCount: request.messageCount,
        requestHash: request.requestHash,
        requestParts: request.requestParts,
        modelSettings: this.model.settings,
        finalOutput: input.responseFormat !== undefined,
        streamed: state.streaming,
        server: this.model.server,
      }),
    );
    return this.#span;
  }

  /** The attempt's span, started with the loop's request if the model was never sent one. */
  get #started(): OpenSpan<'llm_start'> {
    return this.#span ?? this.#start(this.#made);
  }

  /** The request, as the model gets it; throws the refusal of a feature that holds the attempt. */
  request(holds: Holds<ModelAttemptHold>): ModelRequest {
    const refusal = refusalOf(holds);
    if (refusal !== undefined) throw refusal;
    const { input } = this;
    const sent = input.transformed ?? input;
    const request: Writable<ModelRequest> = {
      instructions: sent.instructions,
      messages: sent.messages,
      tools: sent.tools,
      agentName: input.agent.name,
    };
    if (this.state.tracer.recording) request.agentSpanId = input.agentSpan.spanId;
    if (this.#limits.signal !== undefined) request.abortSignal = this.#limits.signal;
    if (input.responseFormat !== undefined) request.responseFormat = input.responseFormat;
    if (input.stopSequences !== undefined) request.stopSequences = input.stopSequences;
    return request;
  }

  /** The answer in one piece, within the call's time limit and the run's signal. */
  generated(request: ModelRequest): Promise<ModelResponse> {
    const { deadline } = this.#limits;
    const answer = this.model.generate(request);
    return raceAbort(
      deadline === undefined ? answer : Promise.race([answer, deadline.expired]),
      this.state.signal,
    );
  }

  /** The answer streamed: a chunk for each piece of text, then the assembled response. */
  streamed(request: ModelRequest): AsyncGenerator<Chunk, ModelResponse, undefined> {
    const { deadline, idle } = this.#limits;
    return streamModelResponse(this.model.stream(request), this.input.agent.name, this.state, {
      splitter: this.input.splitter?.(),
      deadline,
      idle,
      timing: this.#timing,
    });
  }

  /** The attempt answered: its usage counted, its cost charged, its span ended. */
  answered(answer: ModelResponse): ModelResponse {
    const usage = countedUsage(answer.usage);
    const response = usage === answer.usage ? answer : { ...answer, usage };
    const identity = this.#identity;
    const cost = this.input.hooks.price(identity, response);
    const { input, state } = this;
    countCost([input.cost, state.totals.cost], cost, `${identity.provider}/${identity.model}`);
    state.tracer.end(this.#started, llmEndFields(identity, response, cost, this.#timing));
    return response;
  }

  /**
   * The attempt failed: its span ends with the error. It used nothing, so it costs nothing, if its
   * model has a price; if it has none, the call is counted unpriced (the run's cost is unknown,
   * never said to be $0).
   */
  failed(caught: unknown): void {
    const identity = this.#identity;
    const unused = {
      text: '',
      toolCalls: [],
      finishReason: 'other',
      usage: { promptTokens: 0, completionTokens: 0 },
    } as const;
    if (this.input.hooks.price(identity, unused) === undefined)
      countCost(
        [this.input.cost, this.state.totals.cost],
        undefined,
        `${identity.provider}/${identity.model}`,
      );
    this.state.tracer.end(this.#started, llmFailedFields(identity, toTraceError(caught)));
  }

  /** Clears the time limits; a span still open (the consumer stopped reading) ends as aborted. */
  close(): void {
    this.#limits.clear();
    if (this.#span === undefined || this.state.tracer.isOpen(this.#span))
      this.failed(new RunAbortedError({ reason: 'the stream consumer stopped reading' }));
  }
}
