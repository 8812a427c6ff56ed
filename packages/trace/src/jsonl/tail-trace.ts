import { open } from 'node:fs/promises';
import { setTimeout as wait } from 'node:timers/promises';
import type { TraceEvent } from '@agent-trace/core';
import { NewerContentLog, NewerEvent, type NewerContent } from './newer-content.js';
import { readTraceLine } from './parse-trace-line.js';

/** Options of {@link tailTrace}. */
export interface TailTraceOptions {
  /** How often the file is checked for new lines, in milliseconds. @defaultValue 100 */
  readonly pollMs?: number;
  /** Stops following: the generator returns. */
  readonly signal?: AbortSignal;
  /** Called once per unknown event kind or field written by a newer minor schema version. */
  readonly onNewerContent?: (content: NewerContent) => void;
}

/** The events of the lines appended since the last batch. */
export interface TailBatch {
  readonly events: readonly TraceEvent[];
  /** True when a line is still being written (no newline yet): it comes in a later batch. */
  readonly partial: boolean;
}

/** The most read from the file at once, so a large file is taken in pieces. */
const readSize = 4 * 1024 * 1024;

/**
 * Follows a trace file that is still being written: yields the events already in it, then those
 * of each line appended, batch by batch, until `signal` aborts or the consumer stops. Only complete
 * lines are read; a line still being written waits for its newline. Each line is validated as
 * `readTrace` does (an invalid line throws a `TraceParseError` with file and line; newer content
 * is skipped and reported). The file must exist.
 */
export async function* tailTrace(
  file: string,
  options: TailTraceOptions = {},
): AsyncGenerator<TailBatch, void, undefined> {
  const { pollMs = 100, signal } = options;
  const newer = new NewerContentLog(options.onNewerContent ?? (() => undefined));
  const handle = await open(file, 'r');
  let position = 0;
  let pending = '';
  let line = 0;
  /** Decodes across reads that split a character; drops a byte order mark at the start. */
  const decoder = new TextDecoder('utf-8');
  try {
    while (signal?.aborted !== true) {
      const { size } = await handle.stat();
      if (size > position) {
        const buffer = Buffer.alloc(Math.min(readSize, size - position));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        position += bytesRead;
        pending += decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
        const events: TraceEvent[] = [];
        let newline = pending.indexOf('\n');
        let from = 0;
        while (newline !== -1) {
          const text = pending.slice(from, newline);
          line++;
          const event = text.trim() === '' ? undefined : readTraceLine(text, file, line, newer);
          if (event !== undefined && !(event instanceof NewerEvent)) events.push(event);
          from = newline + 1;
          newline = pending.indexOf('\n', from);
        }
        pending = pending.slice(from);
        if (events.length > 0 || pending !== '') yield { events, partial: pending !== '' };
        if (size > position) continue;
      }
      await wait(pollMs, undefined, { signal }).catch(() => undefined);
    }
  } finally {
    await handle.close();
  }
}
