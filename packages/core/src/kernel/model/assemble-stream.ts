import { ModelCallError } from '../errors/model-call-error.js';
import type { FinishReason } from '../protocol/finish-reason.js';
import type { ModelResponse, ModelStreamPart } from './language-model.js';
import type { ToolCallRequest } from '../protocol/message.js';
import { reasoningMarks, type ReasoningPart } from '../protocol/reasoning.js';
import { zeroUsage, type Usage } from '../protocol/usage.js';

/**
 * Builds a {@link ModelResponse} from stream parts, one part at a time, so a streaming consumer
 * can see each part as it arrives and the loop still gets the same response `generate` returns.
 */
export class StreamAssembler {
  #text = '';
  readonly #calls = new Map<string, { toolName: string; argumentsText: string }>();
  #finishReason: FinishReason | undefined;
  #cacheHit = false;
  #usage: Usage = zeroUsage;
  #responseId: string | undefined;
  #responseModel: string | undefined;
  readonly #reasoning: ReasoningPart[] = [];
  /** The text of the reasoning part still open (a `reasoning-delta` came, its end not yet). */
  #thinking: string | undefined;

  /** Takes one part into the response. */
  add(part: ModelStreamPart): void {
    switch (part.type) {
      case 'text-delta':
        this.#text += part.text;
        return;
      case 'tool-call-start':
        this.#calls.set(part.callId, { toolName: part.toolName, argumentsText: '' });
        return;
      case 'tool-call-delta': {
        const call = this.#calls.get(part.callId);
        if (call === undefined) {
          throw new ModelCallError({
            kind: 'unknown',
            message: `Model stream is malformed: arguments arrived for tool call '${part.callId}' before its start. The model adapter must send 'tool-call-start' first.`,
          });
        }
        call.argumentsText += part.argumentsDelta;
        return;
      }
      case 'tool-call-end':
        return;
      case 'reasoning-delta':
        this.#thinking = (this.#thinking ?? '') + part.text;
        return;
      case 'reasoning-end':
        this.#reasoning.push({ text: this.#thinking ?? '', ...reasoningMarks(part) });
        this.#thinking = undefined;
        return;
      case 'finish':
        this.#finishReason = part.finishReason;
        this.#cacheHit = part.cacheHit === true;
        this.#usage = part.usage;
        this.#responseId = part.responseId;
        this.#responseModel = part.responseModel;
        return;
    }
  }

  /** The assembled response. Throws when the stream ended without a `finish` part. */
  finish(): ModelResponse {
    if (this.#finishReason === undefined) {
      throw new ModelCallError({
        kind: 'stream_interrupted',
        message:
          'Model stream ended without a finish part: the connection was probably cut mid-answer. The call can be retried.',
      });
    }
    const toolCalls: ToolCallRequest[] = [];
    for (const [callId, call] of this.#calls) {
      toolCalls.push({ callId, toolName: call.toolName, argumentsText: call.argumentsText });
    }
    // A part whose end never came (a provider that sends no closing event) is kept as it stands.
    if (this.#thinking !== undefined) this.#reasoning.push({ text: this.#thinking });
    this.#thinking = undefined;
    return {
      text: this.#text,
      toolCalls,
      ...(this.#reasoning.length === 0 ? {} : { reasoning: [...this.#reasoning] }),
      finishReason: this.#finishReason,
      usage: this.#usage,
      ...(this.#cacheHit ? { cacheHit: true as const } : {}),
      ...(this.#responseId === undefined ? {} : { responseId: this.#responseId }),
      ...(this.#responseModel === undefined ? {} : { responseModel: this.#responseModel }),
    };
  }
}
