import type { Message, ModelRequest, ModelResponse, ToolDefinition } from '@agent-trace/core';
import type { FakeAnswerStep } from '../fake-llm-step.js';
import { splitText } from '../script-player.js';
import type { SseFrame } from './sse.js';
import { defined } from '@agent-trace/core/util';

type Block = {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
};

interface MessagesBody {
  system?: string | { text: string }[];
  messages?: { role: string; content: string | Block[] }[];
  tools?: { name: string; description?: string; input_schema?: Record<string, unknown> }[];
  stop_sequences?: string[];
}

const stopReason: Record<ModelResponse['finishReason'], string> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
  other: 'end_turn',
};

/** The request a Messages API body stands for, for responders and usage estimates. */
export function fromMessagesBody(body: MessagesBody): ModelRequest {
  const messages: Message[] = [];
  const names = new Map<string, string>();
  for (const turn of body.messages ?? []) {
    const blocks: Block[] =
      typeof turn.content === 'string' ? [{ type: 'text', text: turn.content }] : turn.content;
    if (turn.role === 'assistant') {
      const toolCalls = blocks
        .filter(block => block.type === 'tool_use')
        .map(block => {
          names.set(block.id ?? '', block.name ?? '');
          return {
            callId: block.id ?? '',
            toolName: block.name ?? '',
            argumentsText: JSON.stringify(block.input ?? {}),
          };
        });
      const text = blocks
        .filter(block => block.type === 'text')
        .map(block => block.text ?? '')
        .join('');
      messages.push({ role: 'assistant', content: text, toolCalls });
      continue;
    }
    for (const block of blocks) {
      if (block.type === 'tool_result') {
        const callId = block.tool_use_id ?? '';
        const content =
          typeof block.content === 'string' ? block.content : JSON.stringify(block.content ?? '');
        messages.push({
          role: 'tool',
          callId,
          toolName: names.get(callId) ?? '',
          content,
          isError: block.is_error === true,
        });
      } else if (block.type === 'text') messages.push({ role: 'user', content: block.text ?? '' });
    }
  }
  const system =
    typeof body.system === 'string'
      ? body.system
      : (body.system ?? []).map(part => part.text).join('');
  const tools: ToolDefinition[] = (body.tools ?? []).map(tool => ({
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.input_schema ?? {},
  }));
  return {
    instructions: system,
    messages,
    tools,
    agentName: 'http',
    ...defined('stopSequences', body.stop_sequences),
  };
}

function content(response: ModelResponse): Block[] {
  const blocks: Block[] = [];
  if (response.text !== '') blocks.push({ type: 'text', text: response.text });
  for (const call of response.toolCalls) {
    let input: unknown = {};
    try {
      input = JSON.parse(call.argumentsText === '' ? '{}' : call.argumentsText);
    } catch {
      input = {};
    }
    blocks.push({ type: 'tool_use', id: call.callId, name: call.toolName, input });
  }
  return blocks;
}

const usageOf = (response: ModelResponse) => ({
  input_tokens:
    response.usage.promptTokens -
    (response.usage.cacheReadTokens ?? 0) -
    (response.usage.cacheWriteTokens ?? 0),
  cache_creation_input_tokens: response.usage.cacheWriteTokens ?? 0,
  cache_read_input_tokens: response.usage.cacheReadTokens ?? 0,
  output_tokens: response.usage.completionTokens,
});

/** A Messages API response. */
export function messageObject(
  response: ModelResponse,
  model: string,
  id: string,
): Record<string, unknown> {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: content(response),
    stop_reason: stopReason[response.finishReason],
    stop_sequence: null,
    usage: usageOf(response),
  };
}

/**
 * The event stream of a Messages API answer, as in the fixtures (`event:` lines included, which
 * the SDK requires): `message_start`, a text block with its deltas, a `ping`, each `tool_use` block
 * with `input_json_delta` fragments, `message_delta` (stop reason, output tokens), `message_stop`.
 * A `cutAfterDeltas` step stops after that many text deltas.
 */
export function messageEvents(
  response: ModelResponse,
  step: FakeAnswerStep,
  model: string,
  id: string,
): SseFrame[] {
  const frames: SseFrame[] = [];
  const emit = (type: string, fields: Record<string, unknown>) =>
    frames.push({ event: type, data: { type, ...fields } });
  const usage = usageOf(response);
  emit('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  let index = 0;
  if (response.text !== '' || step.cutAfterDeltas !== undefined) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    emit('ping', {});
    for (const [position, piece] of splitText(response.text, step.deltas).entries()) {
      if (step.cutAfterDeltas !== undefined && position === step.cutAfterDeltas) return frames;
      emit('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    }
    if (step.cutAfterDeltas !== undefined) return frames;
    emit('content_block_stop', { index });
    index++;
  }
  for (const block of content(response).filter(candidate => candidate.type === 'tool_use')) {
    emit('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
    });
    const json = JSON.stringify(block.input);
    const middle = Math.ceil(json.length / 2);
    for (const fragment of ['', json.slice(0, middle), json.slice(middle)]) {
      emit('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: fragment },
      });
    }
    emit('content_block_stop', { index });
    index++;
  }
  emit('message_delta', {
    delta: { stop_reason: stopReason[response.finishReason], stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  emit('message_stop', {});
  return frames;
}
