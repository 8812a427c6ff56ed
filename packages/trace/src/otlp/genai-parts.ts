import type { TraceEventOf } from '@agent-trace/core';

type TraceToolCall = NonNullable<TraceEventOf<'llm_end'>['tool_calls']>[number];
type TraceReasoning = TraceEventOf<'llm_end'>['reasoning'];

/**
 * An assistant turn in the GenAI conventions' message shape: what it thought (`reasoning` parts,
 * one a piece with text; what the provider sent encrypted is its own and is not exported), its
 * text, then its tool calls.
 */
export function assistantParts(
  text: string,
  toolCalls: readonly TraceToolCall[],
  reasoning: TraceReasoning,
): object[] {
  return [
    ...(reasoning ?? [])
      .filter(part => part.text !== '')
      .map(part => ({ type: 'reasoning', content: part.text })),
    ...(text === '' ? [] : [{ type: 'text', content: text }]),
    ...toolCalls.map(call => ({
      type: 'tool_call',
      id: call.call_id,
      name: call.tool,
      arguments: call.arguments,
    })),
  ];
}
