import type { FinishReason, Message, ToolDefinition } from '@agent-trace/core';

/** A message in the GenAI conventions' shape (`gen_ai.input.messages`, `gen_ai.output.messages`). */
interface SemconvMessage {
  readonly role?: string;
  readonly parts?: ReadonlyArray<{
    readonly type?: string;
    readonly content?: unknown;
    readonly id?: string;
    readonly name?: string;
    readonly arguments?: unknown;
    readonly response?: unknown;
    readonly result?: unknown;
  }>;
  readonly finish_reason?: string;
  readonly name?: string;
}

/** Messages in the conventions' shape as agent-trace's: system parts as instructions apart. */
export function messagesOf(value: unknown): { instructions: string[]; messages: Message[] } {
  const instructions: string[] = [];
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  for (const message of (Array.isArray(value) ? value : []) as SemconvMessage[]) {
    const parts = message.parts ?? [];
    const texts = parts.filter(part => part.type === 'text').map(part => textOf(part.content));
    // Parts are pieces of their own: a line apart, not run together.
    if (message.role === 'system') instructions.push(texts.join('\n'));
    else if (message.role === 'user') messages.push({ role: 'user', content: texts.join('\n') });
    else if (message.role === 'assistant') {
      const toolCalls = parts
        .filter(part => part.type === 'tool_call')
        .map(part => {
          toolNames.set(part.id ?? '', part.name ?? '');
          return {
            callId: part.id ?? '',
            toolName: part.name ?? '',
            argumentsText: argumentsText(part.arguments),
          };
        });
      const reasoning = parts
        .filter(part => part.type === 'reasoning')
        .map(part => ({ text: textOf(part.content) }));
      messages.push({
        role: 'assistant',
        content: texts.join('\n'),
        toolCalls,
        ...(reasoning.length === 0 ? {} : { reasoning }),
      });
    }
    for (const part of parts)
      if (part.type === 'tool_call_response')
        messages.push({
          role: 'tool',
          callId: part.id ?? '',
          toolName: toolNames.get(part.id ?? '') ?? part.name ?? message.name ?? '',
          content: textOf(part.response ?? part.result),
          isError: false,
        });
  }
  return { instructions, messages };
}

/**
 * The answer of a model call from `gen_ai.output.messages`: its text, tool calls, reasoning (its
 * `reasoning` parts) and finish reason.
 */
export function answerOf(value: unknown): {
  text: string;
  toolCalls: { callId: string; toolName: string; argumentsText: string }[];
  reasoning: { text: string }[];
  finishReason: string | undefined;
} {
  const output = (Array.isArray(value) ? value : []) as SemconvMessage[];
  const { messages } = messagesOf(output.map(message => ({ ...message, role: 'assistant' })));
  return {
    text: messages.map(message => message.content).join(''),
    toolCalls: messages.flatMap(message => (message.role === 'assistant' ? message.toolCalls : [])),
    reasoning: messages.flatMap(message =>
      message.role === 'assistant'
        ? (message.reasoning ?? []).map(part => ({ text: part.text }))
        : [],
    ),
    finishReason: output.at(-1)?.finish_reason,
  };
}

/** The conventions' finish reasons (`gen_ai.response.finish_reasons`) as agent-trace's. */
export function finishReasonOf(reason: string | undefined, calls: boolean): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'tool_call':
    case 'tool_calls':
    case 'tool-calls':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'content_filter':
    case 'content-filter':
      return 'content_filter';
    case undefined:
      return calls ? 'tool_calls' : 'stop';
    default:
      return 'other';
  }
}

/** Tool definitions (`gen_ai.tool.definitions`) as agent-trace's. */
export function toolDefinitionsOf(value: unknown): ToolDefinition[] {
  return ((Array.isArray(value) ? value : []) as Record<string, unknown>[]).map(tool => {
    const fn = (tool.function ?? tool) as Record<string, unknown>;
    return {
      name: typeof fn.name === 'string' ? fn.name : '',
      description: typeof fn.description === 'string' ? fn.description : '',
      inputSchema: (fn.parameters ?? fn.inputSchema ?? fn.input_schema ?? {}) as Readonly<
        Record<string, unknown>
      >,
    };
  });
}

/** System instructions (`gen_ai.system_instructions`: text parts, or a string) as text. */
export function instructionsOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return undefined;
  return (value as { content?: unknown }[]).map(part => textOf(part.content)).join('\n\n');
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? {});
}
