import {
  ModelCallError,
  type LanguageModel,
  type Message,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
} from '@agent-trace/core';
import { ordinal } from '@agent-trace/core/util';
import { trackFake } from './fake-registry.js';
import type { FakeAnswerStep, FakeErrorStep, FakeLLMStep } from './fake-llm-step.js';
import {
  ScriptPlayer,
  splitText,
  toModelCallError,
  toResponse,
  type PlayedStep,
} from './script-player.js';

/** One recorded call of a FakeLLM. */
export interface FakeLLMCall {
  /** 1-based. */
  readonly index: number;
  readonly agentName: string;
  readonly instructions: string;
  /** The request's messages as they were at the call. */
  readonly messages: readonly Message[];
  /** The names of the tools offered. */
  readonly toolNames: readonly string[];
  /** The structured-output schema asked for, in the final-output phase. */
  readonly responseFormat: ModelRequest['responseFormat'];
  /** The stop sequences sent (an agent in ReAct mode sends `\nObservation:`). */
  readonly stopSequences: readonly string[] | undefined;
  readonly streaming: boolean;
}

/** What to do with a call past the end of the script. */
export type UnexpectedCallPolicy =
  'error' | 'warn' | ((call: FakeLLMCall) => FakeAnswerStep | FakeErrorStep);

/** Options of {@link fakeLLM}. */
export interface FakeLLMOptions {
  /** @defaultValue 'fake-model' */
  modelId?: string;
  /** @defaultValue 'fake' */
  provider?: string;
  /**
   * The model's settings (temperature, output token limit, …), as a provider's model carries
   * them: recorded on `llm_start` as `model_settings`, so a test can change one and see a rerun
   * name it. @defaultValue none
   */
  settings?: Readonly<Record<string, unknown>>;
  /**
   * A call past the last step: `'error'` fails the run with an error that says so; `'warn'` emits a
   * process warning and answers with empty text; a function answers it.
   * @defaultValue 'error'
   */
  onUnexpectedCall?: UnexpectedCallPolicy;
  /**
   * Lets the script end with unused steps without failing the test (the vitest setup checks every
   * fake after each test). @defaultValue false
   */
  allowUnusedSteps?: boolean;
}

/** A scripted model: see {@link fakeLLM}. */
export interface FakeLLM extends LanguageModel {
  /** Every call so far, in order. */
  readonly calls: readonly FakeLLMCall[];
  /** The latest call, if any. */
  readonly lastCall: FakeLLMCall | undefined;
  /** Steps not used yet. */
  readonly remainingSteps: number;
  /** Throws when some steps of the script were never used. */
  assertComplete(): void;
}

interface Answer {
  readonly response: ModelResponse;
  readonly step: FakeAnswerStep;
}

/**
 * A strict, scripted model for tests: each call takes the next step of the script, in streaming
 * and non-streaming mode alike (streamed text arrives as several deltas). A call past the last
 * step fails the run with an error that says so (see `onUnexpectedCall`).
 *
 * @example
 * ```ts
 * const model = fakeLLM([
 *   { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
 *   { text: 'The sum is 5.' },
 * ]);
 * ```
 */
export function fakeLLM(steps: readonly FakeLLMStep[], options: FakeLLMOptions = {}): FakeLLM {
  const { modelId = 'fake-model', provider = 'fake', onUnexpectedCall = 'error' } = options;
  const player = new ScriptPlayer(steps, modelId);
  const calls: FakeLLMCall[] = [];

  /**
   * The answer to one call, as a promise. Not async itself: a scripted answer is at hand at once,
   * and each layer of promises was a share of every step of a scripted run. A throw is a rejection.
   */
  function answer(request: ModelRequest, streaming: boolean): Promise<Answer> {
    const call = recordCall(calls.length + 1, request, streaming);
    calls.push(call);
    try {
      const played = player.next(request, () =>
        typeof onUnexpectedCall === 'function' ? onUnexpectedCall(call) : undefined,
      );
      return played instanceof Promise
        ? played.then(step => settled(step, call, request))
        : Promise.resolve(settled(played, call, request));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** What a played step answers, or throws. */
  function settled(played: PlayedStep, call: FakeLLMCall, request: ModelRequest): Answer {
    switch (played.kind) {
      case 'answer':
        return played;
      case 'throw':
        throw played.error;
      case 'error':
        throw toModelCallError(
          played.step,
          `FakeLLM '${modelId}' answered call ${call.index} (agent '${request.agentName}') with a scripted HTTP ${played.step.error.status} error.`,
        );
      case 'exhausted': {
        const message = `FakeLLM '${modelId}' was called a ${ordinal(call.index)} time (by agent '${request.agentName}'), but its script has only ${player.length} step${player.length === 1 ? '' : 's'}.`;
        if (onUnexpectedCall === 'warn') {
          process.emitWarning(
            `${message} It answered with empty text (onUnexpectedCall: 'warn').`,
            {
              code: 'AGENT_TRACE_UNEXPECTED_MODEL_CALL',
            },
          );
          return { response: toResponse({}, request, call.index, modelId), step: {} };
        }
        throw new ModelCallError({
          kind: 'script_exhausted',
          isRetryable: false,
          message: `${message} Add a step to the script, or find out why the agent called the model again.`,
        });
      }
    }
  }

  const model: FakeLLM = {
    specificationVersion: 'v1',
    provider,
    modelId,
    ...(options.settings === undefined ? {} : { settings: { ...options.settings } }),
    calls,
    get lastCall() {
      return calls.at(-1);
    },
    get remainingSteps() {
      return player.remaining;
    },
    generate: request =>
      answer(request, false).then(({ response, step }) =>
        step.cutAfterDeltas === undefined
          ? response
          : streamCut(modelId, step, calls.length, request).then(cut => Promise.reject(cut)),
      ),
    stream: request => streamAnswer(answer(request, true), request, modelId, calls),
    assertComplete() {
      const unused = player.remaining;
      if (unused > 0) {
        throw new Error(
          `FakeLLM '${modelId}' has ${unused} unused step${unused === 1 ? '' : 's'} (steps ${player.used + 1} to ${player.length} of ${player.length}); it was called ${calls.length} time${calls.length === 1 ? '' : 's'}. Remove the extra steps, or find out why the agent stopped early.`,
        );
      }
    },
  };
  if (options.allowUnusedSteps !== true) trackFake(model);
  return model;
}

function recordCall(index: number, request: ModelRequest, streaming: boolean): FakeLLMCall {
  const live = request.messages;
  const length = live.length;
  let snapshot: readonly Message[] | undefined;
  return {
    index,
    agentName: request.agentName,
    instructions: request.instructions,
    toolNames: request.tools.map(definition => definition.name),
    responseFormat: request.responseFormat,
    stopSequences: request.stopSequences,
    streaming,
    // The history is append-only: its first `length` messages are what this call saw. Copying
    // only when asked keeps a long run's per-call cost flat.
    get messages() {
      snapshot ??= live.slice(0, length);
      return snapshot;
    },
  };
}

/** The failure a step's `cutAfterDeltas` ends in: at once, or, for `silence`, when the call is cancelled. */
async function streamCut(
  modelId: string,
  step: FakeAnswerStep,
  index: number,
  request: ModelRequest,
): Promise<unknown> {
  const deltas = step.cutAfterDeltas ?? 0;
  const where = `the stream of call ${index} (agent '${request.agentName}') after ${deltas} delta${deltas === 1 ? '' : 's'}`;
  switch (step.cutAs ?? 'dropped') {
    case 'dropped':
      return new ModelCallError({
        kind: 'stream_interrupted',
        message: `FakeLLM '${modelId}' cut ${where}, as scripted.`,
      });
    case 'malformed_chunk':
      return new ModelCallError({
        kind: 'server',
        message: `FakeLLM '${modelId}' sent a chunk that is not JSON in ${where}, as scripted.`,
      });
    case 'silence':
      return untilCancelled(request.abortSignal);
  }
}

function untilCancelled(signal: AbortSignal | undefined): Promise<unknown> {
  return new Promise(resolve => {
    if (signal === undefined) return;
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });
}

async function* streamAnswer(
  answering: Promise<Answer>,
  request: ModelRequest,
  modelId: string,
  calls: readonly FakeLLMCall[],
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const { response, step } = await answering;
  const { text, toolCalls, finishReason, usage, responseModel } = response;
  for (const { text: thought, ...marks } of response.reasoning ?? []) {
    for (const piece of splitText(thought, undefined))
      yield { type: 'reasoning-delta', text: piece };
    yield { type: 'reasoning-end', ...marks };
  }
  const pieces = splitText(text, step.deltas);
  for (const [index, piece] of pieces.entries()) {
    if (step.cutAfterDeltas !== undefined && index === step.cutAfterDeltas) {
      throw await streamCut(modelId, step, calls.length, request);
    }
    request.abortSignal?.throwIfAborted();
    yield { type: 'text-delta', text: piece };
  }
  if (step.cutAfterDeltas !== undefined)
    throw await streamCut(modelId, step, calls.length, request);
  for (const call of toolCalls) {
    yield { type: 'tool-call-start', callId: call.callId, toolName: call.toolName };
    const middle = Math.ceil(call.argumentsText.length / 2);
    for (const fragment of [
      call.argumentsText.slice(0, middle),
      call.argumentsText.slice(middle),
    ]) {
      if (fragment !== '')
        yield { type: 'tool-call-delta', callId: call.callId, argumentsDelta: fragment };
    }
    yield { type: 'tool-call-end', callId: call.callId };
  }
  yield {
    type: 'finish',
    finishReason,
    usage,
    ...(responseModel === undefined ? {} : { responseModel }),
  };
}
