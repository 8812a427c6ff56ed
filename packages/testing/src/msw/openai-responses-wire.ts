import type { Message, ModelRequest, ModelResponse, ToolDefinition } from '@agent-trace/core';
import { appendToolCall } from '@agent-trace/core/record';
import type { FakeAnswerStep } from '../fake-llm-step.js';
import { splitText } from '../script-player.js';
import type { SseFrame } from './sse.js';

interface ResponsesBody {
  instructions?: string;
  input?:
    | string
    | {
        type?: string;
        role?: string;
        content?: unknown;
        call_id?: string;
        name?: string;
        arguments?: string;
        output?: string;
      }[];
  tools?: {
    type: string;
    name: string;
    description?: string;
    parameters?: Record<string, unknown>;
  }[];
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .map(part =>
            typeof (part as { text?: unknown }).text === 'string'
              ? (part as { text: string }).text
              : '',
          )
          .join('')
      : '';

/** The request a Responses API body stands for, for responders and usage estimates. */
export function fromResponsesBody(body: ResponsesBody): ModelRequest {
  const messages: Message[] = [];
  const names = new Map<string, string>();
  const items =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
  for (const item of items) {
    if (item.type === 'function_call') {
      names.set(item.call_id ?? '', item.name ?? '');
      appendToolCall(messages, {
        callId: item.call_id ?? '',
        toolName: item.name ?? '',
        argumentsText: item.arguments ?? '',
      });
    } else if (item.type === 'function_call_output') {
      const callId = item.call_id ?? '';
      messages.push({
        role: 'tool',
        callId,
        toolName: names.get(callId) ?? '',
        content: item.output ?? '',
        isError: false,
      });
    } else if (item.role === 'user') messages.push({ role: 'user', content: textOf(item.content) });
    else if (item.role === 'assistant')
      messages.push({ role: 'assistant', content: textOf(item.content), toolCalls: [] });
  }
  const tools: ToolDefinition[] = (body.tools ?? []).map(tool => ({
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.parameters ?? {},
  }));
  return { instructions: body.instructions ?? '', messages, tools, agentName: 'http' };
}

function output(response: ModelResponse): unknown[] {
  const items: unknown[] = [];
  if (response.text !== '') {
    items.push({
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: response.text, annotations: [] }],
    });
  }
  response.toolCalls.forEach((call, index) =>
    items.push({
      type: 'function_call',
      id: `fc_${index + 1}`,
      call_id: call.callId,
      name: call.toolName,
      arguments: call.argumentsText,
      status: 'completed',
    }),
  );
  return items;
}

/** What a response echoes of its request, as the API does. */
export interface ResponsesEcho {
  readonly instructions?: unknown;
  readonly tools?: unknown;
}

/** A Responses API response object. */
export function responsesObject(
  response: ModelResponse,
  model: string,
  id: string,
  status: 'completed' | 'in_progress' = 'completed',
  echo: ResponsesEcho = {},
): Record<string, unknown> {
  const incomplete =
    response.finishReason === 'length' || response.finishReason === 'content_filter';
  return {
    id,
    object: 'response',
    created_at: 1_700_000_000,
    status: status === 'in_progress' ? status : incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete
      ? { reason: response.finishReason === 'length' ? 'max_output_tokens' : 'content_filter' }
      : null,
    model,
    output: status === 'in_progress' ? [] : output(response),
    parallel_tool_calls: true,
    tool_choice: 'auto',
    // The API echoes the request's instructions and tools in its response.
    instructions: echo.instructions ?? null,
    tools: echo.tools ?? [],
    error: null,
    usage:
      status === 'in_progress'
        ? null
        : {
            input_tokens: response.usage.promptTokens,
            input_tokens_details: { cached_tokens: response.usage.cacheReadTokens ?? 0 },
            output_tokens: response.usage.completionTokens,
            output_tokens_details: { reasoning_tokens: response.usage.reasoningTokens ?? 0 },
            total_tokens: response.usage.promptTokens + response.usage.completionTokens,
          },
  };
}

/**
 * The event stream of a Responses API answer, as in the fixtures: `response.created`, the message
 * item with its text deltas, each function call item with its argument deltas (separate item `id`
 * and `call_id`), `response.completed` with usage. A `cutAfterDeltas` step stops after that many
 * text deltas.
 */
export function responsesEvents(
  response: ModelResponse,
  step: FakeAnswerStep,
  model: string,
  id: string,
  echo: ResponsesEcho = {},
): SseFrame[] {
  let sequence = 0;
  const frames: SseFrame[] = [];
  const emit: Emit = (type, fields) =>
    frames.push({ event: type, data: { type, sequence_number: sequence++, ...fields } });
  emit('response.created', { response: responsesObject(response, model, id, 'in_progress', echo) });
  let outputIndex = 0;
  if (response.text !== '' || step.cutAfterDeltas !== undefined) {
    if (messageEvents(response, step, emit, outputIndex) === 'cut') return frames;
    outputIndex++;
  }
  response.toolCalls.forEach((call, index) => functionCallEvents(call, index, emit, outputIndex++));
  const done = responsesObject(response, model, id, 'completed', echo);
  emit(done.status === 'incomplete' ? 'response.incomplete' : 'response.completed', {
    response: done,
  });
  return frames;
}

/** Adds one event of the stream. */
type Emit = (type: string, fields: Record<string, unknown>) => void;

/** The message item with its text deltas; `cut` when a `cutAfterDeltas` step stops it. */
function messageEvents(
  response: ModelResponse,
  step: FakeAnswerStep,
  emit: Emit,
  outputIndex: number,
): 'cut' | 'done' {
  emit('response.output_item.added', {
    output_index: outputIndex,
    item: { type: 'message', id: 'msg_1', status: 'in_progress', role: 'assistant', content: [] },
  });
  const at = { item_id: 'msg_1', output_index: outputIndex, content_index: 0 };
  emit('response.content_part.added', {
    ...at,
    part: { type: 'output_text', text: '', annotations: [] },
  });
  for (const [index, piece] of splitText(response.text, step.deltas).entries()) {
    if (step.cutAfterDeltas !== undefined && index === step.cutAfterDeltas) return 'cut';
    emit('response.output_text.delta', { ...at, delta: piece });
  }
  if (step.cutAfterDeltas !== undefined) return 'cut';
  emit('response.output_text.done', { ...at, text: response.text });
  emit('response.output_item.done', { output_index: outputIndex, item: output(response)[0] });
  return 'done';
}

/** A function call item with its argument deltas (its own item `id` beside the `call_id`). */
function functionCallEvents(
  call: ModelResponse['toolCalls'][number],
  index: number,
  emit: Emit,
  outputIndex: number,
): void {
  const item = {
    type: 'function_call',
    id: `fc_${index + 1}`,
    call_id: call.callId,
    name: call.toolName,
  };
  emit('response.output_item.added', {
    output_index: outputIndex,
    item: { ...item, arguments: '', status: 'in_progress' },
  });
  const middle = Math.ceil(call.argumentsText.length / 2);
  for (const fragment of [call.argumentsText.slice(0, middle), call.argumentsText.slice(middle)])
    if (fragment !== '')
      emit('response.function_call_arguments.delta', {
        item_id: item.id,
        output_index: outputIndex,
        delta: fragment,
      });
  emit('response.function_call_arguments.done', {
    item_id: item.id,
    output_index: outputIndex,
    name: call.toolName,
    arguments: call.argumentsText,
  });
  emit('response.output_item.done', {
    output_index: outputIndex,
    item: { ...item, arguments: call.argumentsText, status: 'completed' },
  });
}
