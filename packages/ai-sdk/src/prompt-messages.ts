import type { Message } from '@agent-trace/core';

/**
 * A message of an AI SDK prompt, as both of its forms have it: the provider's (`LanguageModelV4`
 * prompt, content always parts) and the application's (`ModelMessage`, content text or parts).
 */
export interface PromptMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string | readonly PromptPart[];
}

/** A part of a prompt message: the fields of the kinds carried, the others ignored. */
interface PromptPart {
  readonly type: string;
  readonly text?: string;
  readonly filename?: string;
  readonly mediaType?: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly input?: unknown;
  readonly providerExecuted?: boolean;
  readonly output?: { readonly type: string; readonly value?: unknown; readonly reason?: string };
}

/**
 * A prompt as agent-trace's conversation: system messages as the instructions, then user text,
 * assistant text and tool calls, and tool results (an error output or a denied execution marked
 * as an error). Reasoning parts are not carried; a file part is named, not carried.
 */
export function fromPrompt(prompt: readonly PromptMessage[]): {
  instructions: string;
  messages: Message[];
} {
  const system: string[] = [];
  const messages: Message[] = [];
  for (const message of prompt) {
    if (message.role === 'system') system.push(textOf(message.content));
    else messages.push(...messagesOf(message));
  }
  return { instructions: system.join('\n\n'), messages };
}

function messagesOf(message: PromptMessage): Message[] {
  const parts = typeof message.content === 'string' ? [] : message.content;
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: textOf(message.content) }];
    case 'assistant':
      return [
        {
          role: 'assistant',
          content: textOf(
            parts.length === 0 ? message.content : parts.filter(part => part.type === 'text'),
          ),
          toolCalls: parts
            .filter(part => part.type === 'tool-call' && part.providerExecuted !== true)
            .map(part => ({
              callId: part.toolCallId ?? '',
              toolName: part.toolName ?? '',
              argumentsText:
                typeof part.input === 'string' ? part.input : JSON.stringify(part.input),
            })),
        },
      ];
    default:
      return parts
        .filter(part => part.type === 'tool-result')
        .map(part => ({
          role: 'tool',
          callId: part.toolCallId ?? '',
          toolName: part.toolName ?? '',
          content: outputText(part.output),
          isError: !['text', 'json', 'content'].includes(part.output?.type ?? ''),
        }));
  }
}

/** The text of content: text parts joined, a file named. */
function textOf(content: string | readonly PromptPart[]): string {
  if (typeof content === 'string') return content;
  return content
    .map(part =>
      part.type === 'text'
        ? (part.text ?? '')
        : part.type === 'file' || part.type === 'image'
          ? `[file ${part.filename ?? part.mediaType ?? ''}]`
          : '',
    )
    .join('');
}

/** A tool's output as the text the model is shown. */
function outputText(output: PromptPart['output']): string {
  if (output === undefined) return '';
  if (output.type === 'execution-denied')
    return `The tool call was denied${output.reason === undefined ? '' : `: ${output.reason}`}.`;
  return typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
}
