import type OpenAI from 'openai';
import type { ModelStreamPart } from '../../../kernel/model/language-model.js';
import type { ToolCallRequest } from '../../../kernel/protocol/message.js';
import type { ReasoningPart } from '../../../kernel/protocol/reasoning.js';

type ReasoningItem = OpenAI.Responses.ResponseReasoningItem;
type InputItem = OpenAI.Responses.ResponseInputItem;

/**
 * A reasoning item as parts: one per summary part, each with the item's id; the first also with
 * its encrypted content (what a request with `store: false` must send back). An item with no
 * summary is one part with no text.
 */
export function reasoningItemParts(item: ReasoningItem): ReasoningPart[] {
  const texts = item.summary.map(part => part.text);
  return (texts.length === 0 ? [''] : texts).map((text, index) => ({
    text,
    provider: 'openai',
    id: item.id,
    ...(index === 0 && typeof item.encrypted_content === 'string'
      ? { opaque: item.encrypted_content }
      : {}),
  }));
}

/** A reasoning item as stream parts, for the assembler. */
export function* reasoningItemStreamParts(item: ReasoningItem): Generator<ModelStreamPart> {
  for (const part of reasoningItemParts(item)) {
    if (part.text !== '') yield { type: 'reasoning-delta', text: part.text };
    const { text: _text, ...marks } = part;
    yield { type: 'reasoning-end', ...marks };
  }
}

/** A whole answer's output items: text (refusals included, and said), tool calls, reasoning. */
export function readResponsesOutput(output: readonly OpenAI.Responses.ResponseOutputItem[]): {
  text: string;
  refused: boolean;
  toolCalls: ToolCallRequest[];
  reasoning: ReasoningPart[];
} {
  let text = '';
  let refused = false;
  const toolCalls: ToolCallRequest[] = [];
  const reasoning: ReasoningPart[] = [];
  for (const item of output) {
    if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') text += part.text;
        // What the model said instead of an answer: its text, withheld output.
        else if (part.type === 'refusal') {
          text += part.refusal;
          refused = true;
        }
      }
    } else if (item.type === 'function_call')
      toolCalls.push({ callId: item.call_id, toolName: item.name, argumentsText: item.arguments });
    else if (item.type === 'reasoning') reasoning.push(...reasoningItemParts(item));
  }
  return { text, refused, toolCalls, reasoning };
}

/**
 * Reasoning parts as the input items that send them back: the parts of one item (one id) joined
 * again. Only what OpenAI wrote and sent encrypted goes: the requests are not stored
 * (`store: false`), so an item without its encrypted content names nothing the API still has.
 */
export function reasoningInputItems(parts: readonly ReasoningPart[] | undefined): InputItem[] {
  const items: InputItem[] = [];
  let current: (ReasoningItem & { summary: ReasoningItem['summary'][number][] }) | undefined;
  for (const part of parts ?? []) {
    if (part.provider !== 'openai' || part.id === undefined) continue;
    if (current?.id !== part.id) {
      current = undefined;
      if (part.opaque === undefined) continue;
      current = { type: 'reasoning', id: part.id, summary: [], encrypted_content: part.opaque };
      items.push(current);
    }
    if (part.text !== '') current.summary.push({ type: 'summary_text', text: part.text });
  }
  return items;
}
