import {
  ConfigurationError,
  ModelCallError,
  type Message,
  type ModelRequest,
  type ModelResponse,
  type ToolCallRequest,
  type Usage,
} from '@agent-trace/core';
import {
  isFakeErrorStep,
  isFakeThrowStep,
  type FakeAnswerStep,
  type FakeErrorStep,
  type FakeLLMStep,
  type FakeScriptedStep,
} from './fake-llm-step.js';
import { defined } from '@agent-trace/core/util';

/** The keys a step's `usage` may have. */
const usageKeys: readonly (keyof Usage)[] = [
  'promptTokens',
  'completionTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'reasoningTokens',
];

/** Other SDKs' names for the usage keys, to say which one was meant. */
const usageAliases: Readonly<Record<string, keyof Usage>> = {
  inputTokens: 'promptTokens',
  input_tokens: 'promptTokens',
  prompt_tokens: 'promptTokens',
  outputTokens: 'completionTokens',
  output_tokens: 'completionTokens',
  completion_tokens: 'completionTokens',
};

/** A step whose `usage` has a key the script does not know is refused, naming the right keys. */
function checkUsage(step: FakeLLMStep, index: number): void {
  if (typeof step !== 'object' || step === null || !('usage' in step)) return;
  const usage = (step as { usage?: unknown }).usage;
  if (typeof usage !== 'object' || usage === null) return;
  for (const key of Object.keys(usage)) {
    if ((usageKeys as readonly string[]).includes(key)) continue;
    const meant = usageAliases[key];
    throw new ConfigurationError({
      option: 'usage',
      message: `FakeLLM step ${index + 1} has usage.${key}, which a script does not know${meant === undefined ? '' : ` (write ${meant})`}. The keys are ${usageKeys.join(', ')}.`,
    });
  }
}

/** What one scripted call comes to. */
export type PlayedStep =
  | { readonly kind: 'answer'; readonly response: ModelResponse; readonly step: FakeAnswerStep }
  | { readonly kind: 'error'; readonly step: FakeErrorStep }
  | { readonly kind: 'throw'; readonly error: unknown }
  | { readonly kind: 'exhausted'; readonly index: number };

/**
 * Plays a FakeLLM script, one call at a time: the in-memory `fakeLLM` and the msw handlers that
 * serve the same script over HTTP both use it, so one script drives both alike.
 */
export class ScriptPlayer {
  readonly #script: readonly FakeLLMStep[];
  /** The model the answers say answered (a FakeLLM's id); none for the msw handlers. */
  readonly #modelId: string | undefined;
  #used = 0;
  #calls = 0;

  constructor(script: readonly FakeLLMStep[], modelId?: string) {
    script.forEach(checkUsage);
    this.#script = [...script];
    this.#modelId = modelId;
  }

  /** Steps not used yet. */
  get remaining(): number {
    return this.#script.length - this.#used;
  }

  get length(): number {
    return this.#script.length;
  }

  get used(): number {
    return this.#used;
  }

  /**
   * The next step for `request` (1-based call number `index`): at once, unless a scripted
   * function answers with a promise. A throw of the function, or of making its response, is thrown.
   */
  next(
    request: ModelRequest,
    fallback?: (index: number) => FakeScriptedStep | undefined,
  ): PlayedStep | Promise<PlayedStep> {
    const index = ++this.#calls;
    const scripted = this.#script[this.#used];
    const model = this.#modelId;
    if (scripted === undefined) return played(fallback?.(index), request, index, model);
    this.#used++;
    if (typeof scripted !== 'function') return played(scripted, request, index, model);
    const made = scripted(request, { index });
    return isPromiseLike(made)
      ? Promise.resolve(made).then(step => played(step, request, index, model))
      : played(made, request, index, model);
  }
}

function played(
  step: FakeScriptedStep | undefined,
  request: ModelRequest,
  index: number,
  modelId: string | undefined,
): PlayedStep {
  if (step === undefined) return { kind: 'exhausted', index };
  if (isFakeThrowStep(step)) return { kind: 'throw', error: step.throw };
  if (isFakeErrorStep(step)) return { kind: 'error', step };
  return { kind: 'answer', response: toResponse(step, request, index, modelId), step };
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/** Assistant messages up to and including each message seen, by message: each is counted once. */
const assistantsThrough = new WeakMap<Message, number>();

/**
 * The assistant messages of a conversation. A conversation grows from call to call with the same
 * message objects, so only the messages new since a known one are counted: a long scripted run
 * costs a step what a short one does.
 */
function assistantsIn(messages: readonly Message[]): number {
  let from = messages.length;
  let count = 0;
  while (from > 0) {
    const known = assistantsThrough.get(messages[from - 1] as Message);
    if (known !== undefined) {
      count = known;
      break;
    }
    from--;
  }
  for (let at = from; at < messages.length; at++) {
    const message = messages[at] as Message;
    if (message.role === 'assistant') count++;
    assistantsThrough.set(message, count);
  }
  return count;
}

/**
 * The response a scripted answer step stands for. Call ids default to `call_<turn>_<position>`,
 * the turn being the model call's number, or past it the conversation's turn (its assistant
 * messages + 1) when the request carries an earlier conversation: an agent handed a conversation
 * (a handoff, a framework's shared history) goes on numbering where it was, so no two calls of a
 * conversation share an id, however many scripts answer it. It says which model answered, as a
 * provider's does: the step's `responseModel`, else `modelId` (a FakeLLM's own id).
 */
export function toResponse(
  step: FakeAnswerStep,
  request: ModelRequest,
  index: number,
  modelId?: string,
): ModelResponse {
  const text = step.text ?? '';
  const turn = Math.max(assistantsIn(request.messages) + 1, index);
  const toolCalls: ToolCallRequest[] = (step.toolCalls ?? []).map((call, position) => ({
    callId: call.id ?? `call_${turn}_${position + 1}`,
    toolName: call.name,
    argumentsText: call.argumentsText ?? JSON.stringify(call.args ?? {}),
  }));
  const reasoning =
    typeof step.reasoning === 'string' ? [{ text: step.reasoning }] : step.reasoning;
  return {
    text,
    toolCalls,
    ...(reasoning === undefined || reasoning.length === 0 ? {} : { reasoning }),
    finishReason: step.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage: estimateUsage(step.usage, request, text, toolCalls),
    ...defined('responseModel', step.responseModel ?? modelId),
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
  const usage: { -readonly [Key in keyof Usage]: Usage[Key] } = {
    promptTokens:
      given?.promptTokens ??
      Math.ceil(request.instructions.length / 4) + 8 * request.messages.length,
    completionTokens: given?.completionTokens ?? Math.ceil(answerLength / 4),
  };
  if (given?.cacheReadTokens !== undefined) usage.cacheReadTokens = given.cacheReadTokens;
  if (given?.cacheWriteTokens !== undefined) usage.cacheWriteTokens = given.cacheWriteTokens;
  if (given?.reasoningTokens !== undefined) usage.reasoningTokens = given.reasoningTokens;
  return usage;
}

/** Splits text into deltas that join back to the same text: given pieces, fixed sizes, or words. */
export function splitText(
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

/** The error a scripted HTTP failure stands for. */
export function toModelCallError(step: FakeErrorStep, message: string): ModelCallError {
  const { status, retryAfterMs } = step.error;
  return new ModelCallError({
    kind: ModelCallError.kindForStatus(status),
    status,
    ...defined('retryAfterMs', retryAfterMs),
    message: step.error.message ?? message,
  });
}
