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
  type FakeAnswerStep,
  type FakeErrorStep,
  type FakeLLMStep,
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

/** Options of {@link fakeLLM}. */
export interface FakeLLMOptions {
  /** @defaultValue 'fake-model' */
  modelId?: string;
  /** @defaultValue 'fake' */
  provider?: string;
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
  /** Steps not used yet. */
  readonly remainingSteps: number;
  /** Throws when some steps of the script were never used. */
  assertComplete(): void;
}

/**
 * A strict, scripted model for tests: each call takes the next step of the script, in streaming
 * and non-streaming mode alike (streamed text arrives as several deltas). A call past the last
 * step fails the run with an error that says so.
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
  const { modelId = 'fake-model', provider = 'fake' } = options;
  const script = [...steps];
  const calls: FakeLLMCall[] = [];
  let used = 0;

  async function answer(request: ModelRequest, streaming: boolean): Promise<ModelResponse> {
    const index = calls.length + 1;
    calls.push(recordCall(index, request, streaming));
    const step = script[used];
    if (step === undefined) {
      throw new ModelCallError({
        kind: 'script_exhausted',
        isRetryable: false,
        message: `FakeLLM '${modelId}' was called a ${ordinal(index)} time (by agent '${request.agentName}'), but its script has only ${script.length} step${script.length === 1 ? '' : 's'}. Add a step to the script, or find out why the agent called the model again.`,
      });
    }
    used++;
    const resolved = typeof step === 'function' ? await step(request, { index }) : step;
    if (isFakeErrorStep(resolved)) throw toModelCallError(resolved, modelId);
    return toResponse(resolved, request, index);
  }

  const model: FakeLLM = {
    specificationVersion: 'v1',
    provider,
    modelId,
    calls,
    get remainingSteps() {
      return script.length - used;
    },
    generate: request => answer(request, false),
    stream: request => streamAnswer(answer(request, true), request.abortSignal),
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

function toModelCallError(step: FakeErrorStep, modelId: string): ModelCallError {
  const { status, retryAfterMs, message } = step.error;
  return new ModelCallError({
    kind: ModelCallError.kindForStatus(status),
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    message: message ?? `FakeLLM '${modelId}' answered with a scripted HTTP ${status} error.`,
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
  response: Promise<ModelResponse>,
  abortSignal: AbortSignal | undefined,
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const { text, toolCalls, finishReason, usage } = await response;
  for (const piece of splitText(text)) {
    abortSignal?.throwIfAborted();
    yield { type: 'text-delta', text: piece };
  }
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

/** Splits text into word-sized deltas that join back to the same text. */
function splitText(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function ordinal(value: number): string {
  const suffix =
    value % 100 >= 11 && value % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][value % 10] ?? 'th');
  return `${value}${suffix}`;
}
