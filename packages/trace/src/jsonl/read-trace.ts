import type { TraceEvent } from '@agent-trace/core';
import { parseTraceLine } from './parse-trace-line.js';
import { readTraceLines, type TornTail } from './read-trace-lines.js';

/** Options of {@link readTrace}. */
export interface ReadTraceOptions {
  /**
   * Called when the file ends in a line without a newline (a write cut short by a crash); that
   * line is skipped. @defaultValue a process warning
   */
  onTornTail?: (tail: TornTail) => void;
}

/**
 * Streams the events of a JSONL trace without loading the whole file. Every line is checked
 * against the event schema; a bad line throws a `TraceParseError` with its file and line number,
 * except a torn last line, which is reported and skipped.
 *
 * @example
 * ```ts
 * for await (const event of readTrace('traces/run.jsonl')) console.log(event.seq, event.event);
 * ```
 */
export async function* readTrace(
  file: string,
  options: ReadTraceOptions = {},
): AsyncGenerator<TraceEvent, void, undefined> {
  const { onTornTail = warnTornTail } = options;
  for await (const { line, text } of readTraceLines(file, onTornTail)) {
    if (text === '') continue;
    yield parseTraceLine(text, file, line);
  }
}

function warnTornTail(tail: TornTail): void {
  process.emitWarning(
    `${tail.file}:${tail.line}: the last line has no newline (${tail.length} characters): a write was cut short, probably by a crash. It was skipped; the events before it are intact.`,
    { code: 'AGENT_TRACE_TORN_TAIL' },
  );
}
