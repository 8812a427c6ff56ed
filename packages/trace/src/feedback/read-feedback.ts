import type { FeedbackEvent } from '@agent-trace/core';
import { readTrace } from '../jsonl/read-trace.js';

/**
 * The feedback a trace file holds, in file order: every run's, or one run's. Streams the file.
 *
 * @example
 * ```ts
 * const marks = await readFeedback('traces/desk.jsonl', { run: result.runId });
 * ```
 */
export async function readFeedback(
  file: string,
  options: { readonly run?: string } = {},
): Promise<FeedbackEvent[]> {
  const found: FeedbackEvent[] = [];
  for await (const event of readTrace(file))
    if (event.event === 'feedback' && (options.run === undefined || event.run === options.run))
      found.push(event);
  return found;
}
