import {
  ModelCallError,
  type LanguageModel,
  type Message,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
  type ToolCallRequest,
  type Usage,
} from '@agent-trace/core';
import { trackFake } from './fake-registry.js';
import {
  isFakeErrorStep,
  isFakeThrowStep,
  type FakeAnswerStep,
  type FakeErrorStep,
  type FakeLLMStep,
  type FakeScriptedStep,
} from './fake-llm-step.js';

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
  const script = [...steps];
  const calls: FakeLLMCall[] = [];
  let used = 0;

  async function nextStep(request: ModelRequest, call: FakeLLMCall): Promise<FakeScriptedStep> {
    const step = script[used];
    if (step !== undefined) {
      used++;
      return typeof step === 'function' ? await step(request, { index: call.index }) : step;
    }
    if (typeof onUnexpectedCall === 'function') return onUnexpectedCall(call);
    const message = `FakeLLM '${modelId}' was called a ${ordinal(call.index)} time (by agent '${request.agentName}'), but its script has only ${script.length} step${script.length === 1 ? '' : 's'}.`;
    if (onUnexpectedCall === 'warn') {
      process.emitWarning(`${message} It answered with empty text (onUnexpectedCall: 'warn').`, {
        code: 'AGENT_TRACE_UNEXPECTED_MODEL_CALL',
      });
      return { text: '' };
    }
    throw new ModelCallError({
      kind: 'script_exhausted',
      isRetryable: false,
      message: `${message} Add a step to the script, or find out why the agent called the model again.`,
    });
  }

  async function answer(request: ModelRequest, streaming: boolean): Promise<Answer> {
    const call = recordCall(calls.length + 1, request, streaming);
    calls.push(call);
    const step = await nextStep(request, call);
    if (isFakeThrowStep(step)) throw step.throw;
    if (isFakeErrorStep(step)) throw toModelCallError(step, modelId, call, request.agentName);
    return { response: toResponse(step, request, call.index), step };
  }

  const model: FakeLLM = {
    specificationVersion: 'v1',
    provider,
    modelId,
    calls,
    get lastCall() {
      return calls.at(-1);
    },
    get remainingSteps() {
      return script.length - used;
    },
    generate: async request => {
      const { response, step } = await answer(request, false);
      if (step.cutAfterDeltas !== undefined)
        throw streamCut(modelId, step.cutAfterDeltas, calls.length, request.agentName);
      return response;
    },
    stream: request => streamAnswer(answer(request, true), request, modelId, calls),
    assertComplete() {
      const unused = script.length - used;
      if (unused > 0) {
        throw new Error(
          `FakeLLM '${modelId}' has ${unused} unused step${unused === 1 ? '' : 's'} (steps ${used + 1} to ${script.length} of ${script.length}); it was called ${calls.length} time${calls.length === 1 ? '' : 's'}. Remove the extra steps, or find out why the agent stopped early.`,
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
    streaming,
    // The history is append-only: its first `length` messages are what this call saw. Copying
    // only when asked keeps a long run's per-call cost flat.
    get messages() {
      snapshot ??= live.slice(0, length);
      return snapshot;
    },
  };
}

function toModelCallError(
  step: FakeErrorStep,
  modelId: string,
  call: FakeLLMCall,
  agentName: string,
): ModelCallError {
  const { status, retryAfterMs, message } = step.error;
  return new ModelCallError({
    kind: ModelCallError.kindForStatus(status),
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    message:
      message ??
      `FakeLLM '${modelId}' answered call ${call.index} (agent '${agentName}') with a scripted HTTP ${status} error.`,
  });
}

function streamCut(
  modelId: string,
  deltas: number,
  index: number,
  agentName: string,
): ModelCallError {
  return new ModelCallError({
    kind: 'stream_interrupted',
    message: `FakeLLM '${modelId}' cut the stream of call ${index} (agent '${agentName}') after ${deltas} delta${deltas === 1 ? '' : 's'}, as scripted.`,
  });
}

function toResponse(step: FakeAnswerStep, request: ModelRequest, index: number): ModelResponse {
  const text = step.text ?? '';
  const toolCalls: ToolCallRequest[] = (step.toolCalls ?? []).map((call, position) => ({
    callId: call.id ?? `call_${index}_${position + 1}`,
    toolName: call.name,
    argumentsText: call.argumentsText ?? JSON.stringify(call.args ?? {}),
  }));
  return {
    text,
    toolCalls,
    finishReason: step.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage: estimateUsage(step.usage, request, text, toolCalls),
  };
}

/** Roughly 4 characters a token; a constant cost per message so the estimate stays O(1). */
function estimateUsage(
  given: Partial<Usage> | undefined,
  request: ModelRequest,
  text: string,
  toolCalls: readonly ToolCallRequest[],
): Usage {
  let answerLength = text.length;
  for (const call of toolCalls) answerLength += call.toolName.length + call.argumentsText.length;
  return {
    promptTokens:
      given?.promptTokens ??
      Math.ceil(request.instructions.length / 4) + 8 * request.messages.length,
    completionTokens: given?.completionTokens ?? Math.ceil(answerLength / 4),
  };
}

async function* streamAnswer(
  answering: Promise<Answer>,
  request: ModelRequest,
  modelId: string,
  calls: readonly FakeLLMCall[],
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const { response, step } = await answering;
  const { text, toolCalls, finishReason, usage } = response;
  const pieces = splitText(text, step.deltas);
  for (const [index, piece] of pieces.entries()) {
    if (step.cutAfterDeltas !== undefined && index === step.cutAfterDeltas) {
      throw streamCut(modelId, step.cutAfterDeltas, calls.length, request.agentName);
    }
    request.abortSignal?.throwIfAborted();
    yield { type: 'text-delta', text: piece };
  }
  if (step.cutAfterDeltas !== undefined)
    throw streamCut(modelId, step.cutAfterDeltas, calls.length, request.agentName);
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
  yield { type: 'finish', finishReason, usage };
}

/** Splits text into deltas that join back to the same text: given pieces, fixed sizes, or words. */
function splitText(
  text: string,
  deltas: readonly string[] | number | undefined,
): readonly string[] {
  if (typeof deltas === 'object') {
    if (deltas.join('') !== text) {
      throw new Error(
        `FakeLLM step 'deltas' must join to its text: ${JSON.stringify(deltas.join(''))} is not ${JSON.stringify(text)}.`,
      );
    }
    return deltas;
  }
  if (typeof deltas === 'number' && deltas > 0) {
    const pieces: string[] = [];
    for (let start = 0; start < text.length; start += deltas)
      pieces.push(text.slice(start, start + deltas));
    return pieces;
  }
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function ordinal(value: number): string {
  const suffix =
    value % 100 >= 11 && value % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][value % 10] ?? 'th');
  return `${value}${suffix}`;
}
