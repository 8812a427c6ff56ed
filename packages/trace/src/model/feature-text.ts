import type { TraceEventOf } from '@agent-trace/core';
import { canonicalJson } from '@agent-trace/core/util';

const cut = (text: string, length: number): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

/**
 * A feature's own event as lines say it, in `replay`, the viewer and a rerun's comparison alike:
 * its namespaced name and its data (`scrub-emails.scrubbed {"addresses":2}`).
 */
export function featureEventText(event: TraceEventOf<'feature'>, length = 120): string {
  const data = event.data === undefined ? '' : ` ${cut(canonicalJson(event.data), length)}`;
  return `${event.feature}.${event.name}${data}`;
}

/**
 * A feature's transform as lines say it: which feature changed what, and what came of it (a tool
 * result's text as the model reads it; a request's or an answer's parts and hash).
 */
export function transformText(event: TraceEventOf<'transform'>, length = 120): string {
  const by = `feature '${event.feature}' changed`;
  if (event.target === 'tool_result')
    return `${by} what the model reads of tool '${event.tool ?? '?'}' to ${cut(JSON.stringify(event.content ?? ''), length)}`;
  const what = event.target === 'request' ? 'the request of' : 'the answer to';
  return `${by} ${what} model call ${event.step ?? '?'} (${event.changed.join(', ')}) into ${event.hash ?? '?'}`;
}
