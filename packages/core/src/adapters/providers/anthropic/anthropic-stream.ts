import type Anthropic from '@anthropic-ai/sdk';
import type { ModelResponse, ModelStreamPart } from '../../../kernel/model/language-model.js';
import type { ToolCallRequest } from '../../../kernel/protocol/message.js';
import type { ReasoningPart } from '../../../kernel/protocol/reasoning.js';
import { defined } from '../../../kernel/util/defined.js';
import { toModelCallError } from '../provider-error.js';
import { readSseJson } from '../sse-json.js';
import type { MessageParams } from './anthropic-options.js';
import { finalUsage, toUsage, type AnthropicUsage } from './anthropic-usage.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

/** The text, tool calls and thinking of a whole answer's content blocks. */
export function readAnthropicContent(
  content: readonly Anthropic.ContentBlock[],
): Pick<ModelResponse, 'text' | 'toolCalls' | 'reasoning'> {
  let text = '';
  const toolCalls: ToolCallRequest[] = [];
  const reasoning: ReasoningPart[] = [];
  for (const block of content) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'tool_use')
      toolCalls.push({
        callId: block.id,
        toolName: block.name,
        argumentsText: JSON.stringify(block.input),
      });
    else if (block.type === 'thinking')
      reasoning.push({ text: block.thinking, provider: 'anthropic', opaque: block.signature });
    else if (block.type === 'redacted_thinking')
      reasoning.push({ text: '', provider: 'anthropic', opaque: block.data, redacted: true });
  }
  return { text, toolCalls, ...(reasoning.length === 0 ? {} : { reasoning }) };
}

/** What a stream's blocks still open are: a tool call (its id), or thinking (its signature). */
type OpenBlock =
  | { readonly kind: 'tool'; readonly callId: string }
  | { readonly kind: 'thinking'; signature: string; readonly redacted?: string };

/** The parts a content block's start, delta or stop gives. */
function* blockParts(
  event: Anthropic.Messages.RawMessageStreamEvent,
  open: Map<number, OpenBlock>,
): Generator<ModelStreamPart, void, undefined> {
  if (event.type === 'content_block_start') {
    const block = event.content_block;
    if (block.type === 'tool_use') {
      open.set(event.index, { kind: 'tool', callId: block.id });
      yield { type: 'tool-call-start', callId: block.id, toolName: block.name };
    } else if (block.type === 'thinking') {
      open.set(event.index, { kind: 'thinking', signature: block.signature });
      if (block.thinking !== '') yield { type: 'reasoning-delta', text: block.thinking };
    } else if (block.type === 'redacted_thinking')
      open.set(event.index, { kind: 'thinking', signature: '', redacted: block.data });
    return;
  }
  if (event.type === 'content_block_delta') {
    const { delta } = event;
    const block = open.get(event.index);
    if (delta.type === 'text_delta' && delta.text !== '')
      yield { type: 'text-delta', text: delta.text };
    else if (
      delta.type === 'input_json_delta' &&
      delta.partial_json !== '' &&
      block?.kind === 'tool'
    )
      yield { type: 'tool-call-delta', callId: block.callId, argumentsDelta: delta.partial_json };
    else if (delta.type === 'thinking_delta' && delta.thinking !== '')
      yield { type: 'reasoning-delta', text: delta.thinking };
    else if (delta.type === 'signature_delta' && block?.kind === 'thinking')
      block.signature += delta.signature;
    return;
  }
  if (event.type !== 'content_block_stop') return;
  const block = open.get(event.index);
  open.delete(event.index);
  if (block?.kind === 'tool') yield { type: 'tool-call-end', callId: block.callId };
  else if (block?.redacted !== undefined)
    yield { type: 'reasoning-end', provider: 'anthropic', opaque: block.redacted, redacted: true };
  else if (block !== undefined)
    yield {
      type: 'reasoning-end',
      provider: 'anthropic',
      ...(block.signature === '' ? {} : { opaque: block.signature }),
    };
}

/** A Messages API answer, streamed, as model stream parts. */
export async function* streamAnthropicMessages(
  client: () => Anthropic,
  params: MessageParams,
  abortSignal: AbortSignal | undefined,
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const open = new Map<number, OpenBlock>();
  let startUsage: AnthropicUsage = {};
  let outputTokens = 0;
  let stopReason: string | null | undefined;
  let stopped = false;
  const answered: { id?: string; model?: string } = {};
  try {
    const response = await client()
      .messages.create({ ...params, stream: true }, defined('signal', abortSignal))
      .asResponse();
    for await (const { data } of readSseJson(response, 'Anthropic')) {
      const event = data as Anthropic.Messages.RawMessageStreamEvent;
      if (event.type === 'message_start') {
        startUsage = event.message.usage;
        answered.id = event.message.id || undefined;
        answered.model = event.message.model || undefined;
        outputTokens = event.message.usage.output_tokens;
      } else if (event.type === 'message_delta') {
        stopReason = event.delta.stop_reason;
        outputTokens = event.usage.output_tokens;
        // The final counts: a message_delta's usage is cumulative, and its input and cache
        // tokens (when it gives them) replace message_start's early estimate.
        startUsage = finalUsage(startUsage, event.usage);
      } else if (event.type === 'message_stop') stopped = true;
      else yield* blockParts(event, open);
    }
  } catch (error) {
    throw toModelCallError(error, 'Anthropic');
  }
  if (!stopped) return; // cut mid-way: the assembler reports an interrupted stream
  yield {
    type: 'finish',
    finishReason: mapAnthropicStopReason(stopReason),
    usage: toUsage(startUsage, outputTokens),
    ...defined('responseId', answered.id),
    ...defined('responseModel', answered.model),
  };
}
