/**
 * A feature that keeps e-mail addresses from the model: it replaces them in every tool result with
 * `[email removed]` (or the text given) before the model reads it, through the transform hook for
 * tool results, and writes an event of its own (`scrub-emails.scrubbed`) with how many it removed.
 *
 * The call's `tool_end` keeps what the tool returned; the trace's `transform` event names this
 * feature and says what the model read instead, and the next `llm_start` records what was sent. A
 * rerun with another replacement diverges at the transform, in words.
 */
import type { Feature } from '@agent-trace/core/features';

/** An e-mail address, as the scrub finds it. */
const address = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

/** Replaces e-mail addresses in tool results with `replacement` before the model reads them. */
export function scrubEmails(replacement = '[email removed]'): Feature {
  return {
    name: 'scrub-emails',
    version: 2,
    forRun: ({ emit }) => ({
      transformToolResult(at) {
        const found = at.content.match(address)?.length ?? 0;
        if (found === 0) return undefined;
        emit(at, 'scrubbed', { tool: at.call.toolName, addresses: found });
        return at.content.replace(address, replacement);
      },
    }),
  };
}
