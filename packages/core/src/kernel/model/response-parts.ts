import type { ModelResponse, ModelStreamPart } from './language-model.js';
import { reasoningMarks } from '../protocol/reasoning.js';

/**
 * A whole response as the stream parts that assemble to it: its reasoning part by part, its text in one delta, each tool call
 * whole, then `finish` (with `cacheHit` when the response has it). For models that answer from a
 * store: a recording, a cache.
 */
export function* partsOfResponse(
  response: ModelResponse,
): Generator<ModelStreamPart, void, undefined> {
  for (const part of response.reasoning ?? []) {
    if (part.text !== '') yield { type: 'reasoning-delta', text: part.text };
    yield { type: 'reasoning-end', ...reasoningMarks(part) };
  }
  if (response.text !== '') yield { type: 'text-delta', text: response.text };
  for (const call of response.toolCalls) {
    yield { type: 'tool-call-start', callId: call.callId, toolName: call.toolName };
    if (call.argumentsText !== '')
      yield { type: 'tool-call-delta', callId: call.callId, argumentsDelta: call.argumentsText };
    yield { type: 'tool-call-end', callId: call.callId };
  }
  yield {
    type: 'finish',
    finishReason: response.finishReason,
    usage: response.usage,
    ...(response.cacheHit === true ? { cacheHit: true as const } : {}),
  };
}
