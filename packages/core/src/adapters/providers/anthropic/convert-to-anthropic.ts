import type Anthropic from '@anthropic-ai/sdk';
import type { ToolDefinition } from '../../../kernel/model/language-model.js';
import type { Message } from '../../../kernel/protocol/message.js';
import type { ReasoningPart } from '../../../kernel/protocol/reasoning.js';

type MessageParam = Anthropic.MessageParam;
type Block = Anthropic.ContentBlockParam;

function parseInput(argumentsText: string): Record<string, unknown> {
  try {
    const value = JSON.parse(argumentsText === '' ? '{}' : argumentsText) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Adds blocks to the last turn when it has the same role, else starts a turn: turns alternate. */
function pushTurn(params: MessageParam[], role: 'user' | 'assistant', blocks: Block[]): void {
  const last = params.at(-1);
  if (last?.role === role) {
    const existing: Block[] =
      typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
    params[params.length - 1] = { role, content: [...existing, ...blocks] };
  } else {
    params.push({ role, content: blocks });
  }
}

/**
 * The thinking blocks of an assistant turn, as Anthropic wrote them: it requires them back, signed,
 * before the turn's `tool_use` blocks when thinking is on. Pieces another provider wrote, or
 * without their signature, cannot be sent and are left out.
 */
function thinkingBlocks(reasoning: readonly ReasoningPart[] | undefined): Block[] {
  const blocks: Block[] = [];
  for (const part of reasoning ?? []) {
    if (part.provider !== 'anthropic' || part.opaque === undefined) continue;
    blocks.push(
      part.redacted === true
        ? { type: 'redacted_thinking', data: part.opaque }
        : { type: 'thinking', thinking: part.text, signature: part.opaque },
    );
  }
  return blocks;
}

/**
 * Appends one message in the Messages API format: thinking, text and `tool_use` blocks for the assistant,
 * `tool_result` blocks in a user turn for tool results (consecutive results share one turn).
 */
export function appendAnthropicMessage(params: MessageParam[], message: Message): void {
  switch (message.role) {
    case 'user':
      pushTurn(params, 'user', [{ type: 'text', text: message.content }]);
      return;
    case 'assistant': {
      const blocks: Block[] = thinkingBlocks(message.reasoning);
      if (message.content !== '') blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls) {
        blocks.push({
          type: 'tool_use',
          id: call.callId,
          name: call.toolName,
          input: parseInput(call.argumentsText),
        });
      }
      if (blocks.length > 0) pushTurn(params, 'assistant', blocks);
      return;
    }
    case 'tool':
      pushTurn(params, 'user', [
        {
          type: 'tool_result',
          tool_use_id: message.callId,
          content: message.content,
          ...(message.isError ? { is_error: true } : {}),
        },
      ]);
      return;
  }
}

const toolCache = new WeakMap<readonly ToolDefinition[], Anthropic.Tool[]>();

/** The tool definitions in the Messages API format, converted once per set. */
export function toAnthropicTools(tools: readonly ToolDefinition[]): Anthropic.Tool[] {
  let converted = toolCache.get(tools);
  if (converted === undefined) {
    converted = tools.map(tool => ({
      name: tool.name,
      description: tool.description,
      input_schema: { type: 'object', ...tool.inputSchema },
    }));
    toolCache.set(tools, converted);
  }
  return converted;
}
