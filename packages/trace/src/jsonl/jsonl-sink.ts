import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TraceEvent, TraceSink } from '@agent-trace/core';
import type { ResumeLedger } from '@agent-trace/core/approval';
import { fileResumeLedger } from './file-resume-ledger.js';
import { OpenRunTracker } from './open-run-tracker.js';
import { registerForShutdown, unregisterForShutdown } from './shutdown-hooks.js';
import { TraceFileError } from './trace-file-error.js';
import { LineBuffer } from './line-buffer.js';
import { repairTornTail } from './repair-torn-tail.js';

/** Options of {@link jsonlSink}. */
export interface JsonlSinkOptions {
  /**
   * Buffered bytes that trigger a write.
   * @defaultValue 65536
   */
  flushBytes?: number;
  /**
   * Longest time an event waits in the buffer, in milliseconds, so a trace being written can be
   * followed live.
   * @defaultValue 100
   */
  flushIntervalMs?: number;
  /** Told how many bytes of a torn last line were cut off before appending. */
  onRepair?: (info: { file: string; removedBytes: number }) => void;
}

/** A JSONL trace file: see {@link jsonlSink}. */
export interface JsonlSink extends TraceSink {
  readonly path: string;
  /** Writes what is buffered and closes the file. Further writes throw. */
  close(): Promise<void>;
}

/**
 * Writes events to a JSONL file, one per line, appending to what is there.
 *
 * Crash-safe: events are buffered and written with whole lines only — when the buffer fills, after
 * `flushIntervalMs`, at the end of every run, on `SIGINT` / `SIGTERM` and at process exit. A run
 * still going when the process exits is closed and sealed (`run_end` with `aborted`) so the file
 * stays readable and paired. A torn last line left by an earlier crash is cut off before
 * appending. An unwritable path fails here, with a {@link TraceFileError}, before any run starts.
 *
 * It keeps the ledger of resumed states for the runs it records, in `<path>.resumed/` beside the
 * file: a paused run resumed into this trace goes on once, whichever process resumes it.
 *
 * @example
 * ```ts
 * await run(triage, 'I was charged twice', { trace: jsonlSink('traces/run.jsonl') });
 * ```
 */
export function jsonlSink(path: string, options: JsonlSinkOptions = {}): JsonlSink {
  return new JsonlFileSink(path, options);
}

class JsonlFileSink implements JsonlSink {
  readonly path: string;
  readonly resumeLedger: ResumeLedger;
  readonly #flushBytes: number;
  readonly #flushIntervalMs: number;
  readonly #tracker = new OpenRunTracker();
  #fd: number | undefined;
  readonly #buffer: LineBuffer;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** A failed background write, thrown by the next write or flush so the loss is never silent. */
  #failure: Error | undefined;

  constructor(path: string, options: JsonlSinkOptions) {
    const { flushBytes = 65_536, flushIntervalMs = 100, onRepair } = options;
    this.path = path;
    this.resumeLedger = fileResumeLedger(`${path}.resumed`);
    this.#flushBytes = flushBytes;
    // Room for a flush's worth of lines and the line that crosses it.
    this.#buffer = new LineBuffer(Math.max(flushBytes * 2, 65_536));
    this.#flushIntervalMs = flushIntervalMs;
    try {
      mkdirSync(dirname(path), { recursive: true });
      const removedBytes = repairTornTail(path);
      if (removedBytes > 0) onRepair?.({ file: path, removedBytes });
      this.#fd = openSync(path, 'a');
    } catch (error) {
      throw new TraceFileError({ file: path, action: 'open', cause: error });
    }
    registerForShutdown(this);
  }

  write(event: TraceEvent): void {
    this.#throwFailure();
    if (this.#fd === undefined) {
      throw new TraceFileError({
        file: this.path,
        action: 'write',
        cause: new Error('the sink is closed'),
      });
    }
    this.#tracker.observe(event);
    this.#appendLine(JSON.stringify(event));
    if (this.#buffer.length >= this.#flushBytes) this.flushSync();
    else this.#timer ??= setTimeout(() => this.#flushFromTimer(), this.#flushIntervalMs).unref();
  }

  flush(): Promise<void> {
    try {
      this.#throwFailure();
      this.flushSync();
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Writes the buffer now, synchronously: used at run end, on signals and at exit. */
  flushSync(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#buffer.length === 0 || this.#fd === undefined) return;
    this.#writeAll(this.#buffer.take());
  }

  #appendLine(text: string): void {
    if (!this.#buffer.fits(text)) {
      this.flushSync();
      if (!this.#buffer.fits(text)) {
        this.#writeAll(Buffer.from(`${text}\n`, 'utf8')); // longer than the whole buffer
        return;
      }
    }
    this.#buffer.append(text);
  }

  #writeAll(data: Buffer): void {
    if (this.#fd === undefined) return;
    try {
      let written = 0;
      while (written < data.length) written += writeSync(this.#fd, data, written);
    } catch (error) {
      throw new TraceFileError({ file: this.path, action: 'write to', cause: error });
    }
  }

  /**
   * The process is going away: close the spans of unfinished runs, seal them and write everything.
   * Never throws.
   */
  sealInterruptedRuns(reason: string): void {
    try {
      if (this.#tracker.hasOpenRuns) {
        for (const event of this.#tracker.closeAll(reason, Date.now())) {
          this.#appendLine(JSON.stringify(event));
        }
      }
      this.flushSync();
    } catch {
      // Nothing more can be done for this file while the process exits.
    }
  }

  close(): Promise<void> {
    try {
      this.flushSync();
    } finally {
      unregisterForShutdown(this);
      if (this.#fd !== undefined) closeSync(this.#fd);
      this.#fd = undefined;
    }
    return Promise.resolve();
  }

  #flushFromTimer(): void {
    this.#timer = undefined;
    try {
      this.flushSync();
    } catch (error) {
      this.#failure = error as Error;
    }
  }

  #throwFailure(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }
}
