import type { FinishReason } from '@agent-trace/core';
import { RecordedAgent } from '@agent-trace/core/record';
import type { BaseMessage } from '@langchain/core/messages';
import { conversationOf, textOf, toolDefinitionsOf } from '../messages.js';

/** An AI message as a chat model's end gives it, read by its fields. */
export interface AnswerFields {
  readonly content?: unknown;
  readonly tool_calls?: ReadonlyArray<{ id?: string; name: string; args: unknown }>;
  readonly usage_metadata?: {
    readonly input_tokens?: number;
    readonly output_tokens?: number;
    readonly input_token_details?: {
      readonly cache_read?: number;
      readonly cache_creation?: number;
    };
  };
  readonly response_metadata?: { readonly finish_reason?: string; readonly stop_reason?: string };
}

/** What a chat model's start says of the model: its name and provider, and its bound tools. */
export interface ModelStart {
  readonly provider: string;
  readonly model: string;
  readonly tools: unknown;
}

/**
 * One agent of a LangGraph graph (a node that calls a model, or the prebuilt agent's model node)
 * as an agent of the run. It reads its chat model calls, and keeps the calls its last answer asked
 * for, so the tool node's runs find the agent they answer.
 */
export class GraphAgent extends RecordedAgent {
  /** How many of the prompt's messages were already recorded: the prompt grows between calls. */
  #seen = 0;
  /** The calls its answers asked for that no tool has taken yet, by call id. */
  readonly pending = new Map<string, { readonly tool: string; readonly args: unknown }>();

  /** A chat model call starts, with its whole prompt. */
  called(model: ModelStart, prompt: readonly BaseMessage[]): void {
    // A prompt that is not the last one grown (a node that builds its own) is recorded whole.
    if (prompt.length < this.#seen) this.#seen = 0;
    const { instructions, messages: fresh } = conversationOf(prompt, this.#seen);
    this.#seen = prompt.length;
    this.modelCallStarted({
      provider: model.provider,
      model: model.model,
      instructions,
      tools: toolDefinitionsOf(model.tools),
      messages: fresh,
    });
  }

  /** The call ends with its answer, or its error. */
  answered(model: ModelStart, answer: AnswerFields | undefined, error?: unknown): void {
    const calls = (answer?.tool_calls ?? []).map((call, index) => ({
      callId: call.id ?? `call_${this.steps}_${index}`,
      toolName: call.name,
      argumentsText: JSON.stringify(call.args ?? {}),
      args: call.args,
    }));
    for (const call of calls)
      this.pending.set(call.callId, { tool: call.toolName, args: call.args });
    const text = textOf(answer?.content ?? '');
    const usage = answer?.usage_metadata;
    this.modelCallEnded({
      provider: model.provider,
      model: model.model,
      text,
      toolCalls: calls,
      finishReason: finishReasonOf(answer?.response_metadata, calls.length > 0),
      usage: {
        promptTokens: usage?.input_tokens ?? 0,
        completionTokens: usage?.output_tokens ?? 0,
        ...(usage?.input_token_details?.cache_read === undefined
          ? {}
          : { cacheReadTokens: usage.input_token_details.cache_read }),
        ...(usage?.input_token_details?.cache_creation === undefined
          ? {}
          : { cacheWriteTokens: usage.input_token_details.cache_creation }),
      },
      ...(error === undefined ? {} : { error }),
    });
  }
}

/** The provider's finish reason, as LangChain's chat models keep it, as agent-trace's. */
function finishReasonOf(metadata: AnswerFields['response_metadata'], calls: boolean): FinishReason {
  const reason = metadata?.finish_reason ?? metadata?.stop_reason;
  switch (reason) {
    case 'stop':
    case 'end_turn':
      return 'stop';
    case 'tool_calls':
    case 'tool_use':
      return 'tool_calls';
    case 'length':
    case 'max_tokens':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    case undefined:
      return calls ? 'tool_calls' : 'stop';
    default:
      return 'other';
  }
}
