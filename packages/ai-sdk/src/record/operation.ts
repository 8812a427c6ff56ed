import type { FinishReason, ToolDefinition } from '@agent-trace/core';
import { RecordedAgent } from '@agent-trace/core/record';
import { finishReasons } from '../ai-sdk-model.js';
import { fromPrompt, type PromptMessage } from '../prompt-messages.js';

/** What an AI SDK model call says of itself at its start, as the recorder reads it. */
export interface ModelCallStart {
  readonly provider: string;
  readonly modelId: string;
  readonly instructions?: unknown;
  readonly messages: readonly unknown[];
  readonly tools?: ReadonlyArray<Record<string, unknown>>;
  /** The call's settings that change the model's answers (temperature, the output limit, …). */
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly presencePenalty?: number;
  readonly frequencyPenalty?: number;
  readonly stopSequences?: readonly string[];
  readonly seed?: number;
  readonly reasoning?: unknown;
}

/** What it says at its end. */
export interface ModelCallEnd {
  readonly provider: string;
  readonly modelId: string;
  readonly finishReason: string;
  readonly usage: {
    readonly inputTokens?: number;
    readonly outputTokens?: number;
    readonly inputTokenDetails?: {
      readonly cacheReadTokens?: number;
      readonly cacheWriteTokens?: number;
    };
  };
  readonly content: ReadonlyArray<{
    readonly type: string;
    readonly text?: string;
    readonly toolCallId?: string;
    readonly toolName?: string;
    readonly input?: unknown;
  }>;
}

/** The AI SDK's finish reasons as agent-trace's: the inverse of the model's map; any other is `other`. */
const finishReasonOf = new Map<string, FinishReason>(
  Object.entries(finishReasons).map(([ours, theirs]) => [theirs, ours as FinishReason]),
);

/**
 * One AI SDK operation (a `generateText` or `streamText` call) as an agent of an agent-trace run:
 * the run's own agent, or a sub-agent called from a tool of another operation. It reads the AI
 * SDK's model calls into the recorded agent's terms.
 */
export class RecordedOperation extends RecordedAgent {
  /** The AI SDK messages seen so far: the prompt only grows between an operation's calls. */
  #seen = 0;
  /** The instructions of the previous call, as given and as text: they rarely change. */
  #instructions: { readonly given: unknown; readonly text: string } | undefined;
  /** The tool choice of the step under way. */
  #toolChoice: unknown;

  /** An AI SDK model call starts: only the prompt's new messages are converted. */
  aiSdkCallStarted(call: ModelCallStart): void {
    if (this.#instructions === undefined || this.#instructions.given !== call.instructions)
      this.#instructions = {
        given: call.instructions,
        text: fromPrompt(systemMessages(call.instructions)).instructions,
      };
    const instructions = this.#instructions.text;
    const tools: ToolDefinition[] = (call.tools ?? []).flatMap(tool =>
      tool.type === 'function' || tool.type === undefined
        ? [
            {
              name: String(tool.name),
              description: typeof tool.description === 'string' ? tool.description : '',
              inputSchema: (tool.inputSchema ?? {}) as Readonly<Record<string, unknown>>,
            },
          ]
        : [],
    );
    const fresh = fromPrompt(call.messages.slice(this.#seen) as PromptMessage[]);
    this.#seen = call.messages.length;
    this.modelCallStarted({
      provider: call.provider,
      model: call.modelId,
      instructions,
      tools,
      messages: fresh.messages,
      settings: this.#settingsOf(call),
    });
  }

  /** A step starts: what it may answer with (its tool choice), for its model call. */
  aiSdkStepStarted(step: { readonly toolChoice?: unknown }): void {
    this.#toolChoice = step.toolChoice;
  }

  /** The settings of a model call that change what it answers, as the trace keeps them. */
  #settingsOf(call: ModelCallStart): Record<string, unknown> {
    const settings: Record<string, unknown> = {};
    for (const key of settingKeys) if (call[key] !== undefined) settings[key] = call[key];
    if (this.#toolChoice !== undefined) settings.toolChoice = this.#toolChoice;
    return settings;
  }

  /** An AI SDK model call ends. */
  aiSdkCallEnded(call: ModelCallEnd): void {
    this.modelCallEnded({
      provider: call.provider,
      model: call.modelId,
      text: call.content.flatMap(part => (part.type === 'text' ? [part.text ?? ''] : [])).join(''),
      toolCalls: call.content
        .filter(part => part.type === 'tool-call')
        .map(part => ({
          callId: part.toolCallId ?? '',
          toolName: part.toolName ?? '',
          argumentsText: typeof part.input === 'string' ? part.input : JSON.stringify(part.input),
        })),
      finishReason: finishReasonOf.get(call.finishReason) ?? 'other',
      usage: {
        promptTokens: call.usage.inputTokens ?? 0,
        completionTokens: call.usage.outputTokens ?? 0,
        ...(call.usage.inputTokenDetails?.cacheReadTokens === undefined
          ? {}
          : { cacheReadTokens: call.usage.inputTokenDetails.cacheReadTokens }),
        ...(call.usage.inputTokenDetails?.cacheWriteTokens === undefined
          ? {}
          : { cacheWriteTokens: call.usage.inputTokenDetails.cacheWriteTokens }),
      },
    });
  }
}

/** The call settings that change a model's answers, as the AI SDK names them. */
const settingKeys = [
  'temperature',
  'maxOutputTokens',
  'topP',
  'topK',
  'presencePenalty',
  'frequencyPenalty',
  'stopSequences',
  'seed',
  'reasoning',
] as const;

/** The AI SDK's instructions (text, a system message, or several) as system messages. */
function systemMessages(instructions: unknown): PromptMessage[] {
  if (instructions === undefined || instructions === null) return [];
  if (typeof instructions === 'string') return [{ role: 'system', content: instructions }];
  const list = Array.isArray(instructions) ? instructions : [instructions];
  return list.map(each => {
    const { content } = each as { content?: unknown };
    return { role: 'system', content: typeof content === 'string' ? content : '' };
  });
}
