import type { TraceEvent } from '@agent-trace/core';
import {
  NewerContentLog,
  NewerEvent,
  warnNewerContent,
  type NewerContent,
} from './newer-content.js';
import { readTraceLine } from './parse-trace-line.js';
import {
  describeReplacedBytes,
  readTraceLineBatches,
  type ReplacedBytes,
  type TornTail,
  type TraceLineBatch,
} from './read-trace-lines.js';

/** Options of {@link readTrace}. */
export interface ReadTraceOptions {
  /**
   * Called when the file ends in a line without a newline (a write cut short by a crash); that
   * line is skipped. @defaultValue a process warning
   */
  onTornTail?: (tail: TornTail) => void;
  /**
   * Called once for each event kind, and each field of a known kind, that a newer minor version
   * of the schema wrote; such events are skipped, such fields left in place.
   * @defaultValue a process warning
   */
  onNewerContent?: (content: NewerContent) => void;
  /**
   * Called once when the file holds bytes that are not UTF-8 (they are read as U+FFFD), with the
   * line of the first. @defaultValue a process warning
   */
  onReplacedBytes?: (at: ReplacedBytes) => void;
}

/**
 * Streams the events of a JSONL trace without loading the whole file. Every line is checked
 * against the event schema; a bad line throws a `TraceParseError` with its file and line number,
 * except a torn last line, which is reported and skipped. What a newer minor version of the
 * schema wrote (an unknown event kind or field) is skipped and reported once; a newer major
 * version is an error. A UTF-8 byte order mark at the start is accepted; bytes that are not UTF-8
 * are read as U+FFFD and reported once.
 *
 * @example
 * ```ts
 * for await (const event of readTrace('traces/run.jsonl')) console.log(event.seq, event.event);
 * ```
 */
export function readTrace(
  file: string,
  options: ReadTraceOptions = {},
): AsyncIterableIterator<TraceEvent> {
  return new TraceEventStream(
    file,
    readTraceLineBatches(
      file,
      options.onTornTail ?? warnTornTail,
      options.onReplacedBytes ?? warnReplacedBytes,
    ),
    new NewerContentLog(options.onNewerContent ?? warnNewerContent),
  );
}

/**
 * The events of a file, parsed from a buffer of lines at a time. An iterator of its own rather
 * than an async generator: `next()` on a line already read costs a resolved promise, not a
 * generator resumption, which a reader pays once per event.
 */
class TraceEventStream implements AsyncIterableIterator<TraceEvent> {
  readonly #file: string;
  readonly #batches: AsyncGenerator<TraceLineBatch, void, undefined>;
  readonly #newer: NewerContentLog;
  #batch: TraceLineBatch = { firstLine: 1, texts: [] };
  #index = 0;

  constructor(
    file: string,
    batches: AsyncGenerator<TraceLineBatch, void, undefined>,
    newer: NewerContentLog,
  ) {
    this.#file = file;
    this.#batches = batches;
    this.#newer = newer;
  }

  next(): Promise<IteratorResult<TraceEvent, undefined>> {
    const { texts, firstLine } = this.#batch;
    while (this.#index < texts.length) {
      const index = this.#index++;
      const text = texts[index] as string;
      if (text === '') continue;
      try {
        const value = readTraceLine(text, this.#file, firstLine + index, this.#newer);
        if (value instanceof NewerEvent) continue;
        return Promise.resolve({ done: false, value });
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    return this.#nextBatch();
  }

  async #nextBatch(): Promise<IteratorResult<TraceEvent, undefined>> {
    const next = await this.#batches.next();
    if (next.done === true) return { done: true, value: undefined };
    this.#batch = next.value;
    this.#index = 0;
    return this.next();
  }

  /** Stops reading (a `break` out of `for await`): closes the file. */
  async return(): Promise<IteratorResult<TraceEvent, undefined>> {
    this.#batch = { firstLine: 1, texts: [] };
    await this.#batches.return(undefined);
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<TraceEvent> {
    return this;
  }
}

function warnReplacedBytes(at: ReplacedBytes): void {
  process.emitWarning(describeReplacedBytes(at), { code: 'AGENT_TRACE_NOT_UTF8' });
}

function warnTornTail(tail: TornTail): void {
  process.emitWarning(
    `${tail.file}:${tail.line}: the last line has no newline (${tail.length} characters): a write was cut short, probably by a crash. It was skipped; the events before it are intact.`,
    { code: 'AGENT_TRACE_TORN_TAIL' },
  );
}
