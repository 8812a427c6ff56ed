import type { TraceEventOf } from '@agent-trace/core';

type Parts = TraceEventOf<'llm_end'>['reasoning'];

/**
 * What a reader is shown of what a model thought, the same in `replay`, the viewer and the
 * exports: its pieces' texts, one to a line; a piece sent only encrypted is said to be there.
 * Undefined when the answer says nothing of it.
 */
export function reasoningText(parts: Parts): string | undefined {
  if (parts === undefined || parts.length === 0) return undefined;
  const texts = parts.map(part => part.text).filter(text => text !== '');
  const hidden = parts.length - texts.length;
  const sealed = hidden === 0 ? [] : [`(${hidden} piece${hidden === 1 ? '' : 's'} sent encrypted)`];
  return [...texts, ...sealed].join('\n');
}
