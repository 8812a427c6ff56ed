import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { traceSinkVersion, type TraceEvent, type TraceSink } from '@agent-trace/core';
import type { ResumeLedger } from '@agent-trace/core/approval';
import { eachResumeLedger, fileResumeLedger, userResumeFolder } from './file-resume-ledger.js';
import { OpenRunTracker } from './open-run-tracker.js';
import { registerForShutdown, unregisterForShutdown } from './shutdown-hooks.js';
import { TraceFileError } from './trace-file-error.js';
import { BatchWriter, batchWriter } from './batch-writer.js';
import { repairTornTail } from './repair-torn-tail.js';

/** Options of {@link jsonlSink}. */
export interface JsonlSinkOptions {
  /**
   * Buffered bytes (characters) that trigger a write.
   * @defaultValue 65536
   */
  flushBytes?: number;
  /**
   * Hands each full buffer to a background thread to write, so the run does not wait on the disk
   * (one thread a process, shared by its sinks, started with the first full buffer). Whatever
   * must be on disk — at a run's end, on a signal, at exit — is still written before going on.
   * @defaultValue true
   */
  writeInBackground?: boolean;
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
 * Crash-safe: events are buffered and written with whole lines only — when the buffer fills (by a
 * background thread, see `writeInBackground`), after `flushIntervalMs`, and, before the call
 * returns, at the end of every run, on `SIGINT` / `SIGTERM` and at process exit. A run
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
  readonly version = traceSinkVersion;
  readonly path: string;
  readonly resumeLedger: ResumeLedger;
  readonly #flushBytes: number;
  readonly #flushIntervalMs: number;
  readonly #tracker = new OpenRunTracker();
  /** The writer of full buffers: the process's background one, or one that writes here. */
  readonly #writer: BatchWriter;
  #fd: number | undefined;
  /** Lines waiting to be written, and their length in characters (newlines included). */
  #lines: string[] = [];
  #waiting = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** A failed write, thrown by the next write or flush so the loss is never silent. */
  #failure: Error | undefined;

  constructor(path: string, options: JsonlSinkOptions) {
    const { flushBytes = 65_536, flushIntervalMs = 100, onRepair } = options;
    this.path = path;
    this.resumeLedger = eachResumeLedger([
      fileResumeLedger(userResumeFolder()),
      fileResumeLedger(`${path}.resumed`),
    ]);
    this.#flushBytes = flushBytes;
    this.#flushIntervalMs = flushIntervalMs;
    this.#writer = options.writeInBackground === false ? new BatchWriter(false) : batchWriter();
    try {
      mkdirSync(dirname(path), { recursive: true });
      const removedBytes = repairTornTail(path);
      if (removedBytes > 0) onRepair?.({ file: path, removedBytes });
      this.#fd = openSync(path, 'a');
    } catch (error) {
      throw new TraceFileError({ file: path, action: 'open for writing', cause: error });
    }
    registerForShutdown(this);
  }

  write(event: TraceEvent): void {
    // A failure on the writer thread is collected where buffers are handed over, not per event.
    this.#throwFailure();
    if (this.#fd === undefined) {
      throw new TraceFileError({
        file: this.path,
        action: 'write',
        cause: new Error('the sink is closed'),
      });
    }
    this.#tracker.observe(event);
    this.#append(JSON.stringify(event));
    if (this.#waiting >= this.#flushBytes) this.#handOver();
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

  /**
   * Writes the buffer, and whatever this process's writer thread still holds, now, synchronously:
   * used at run end, on signals and at exit.
   */
  flushSync(): void {
    this.#stopTimer();
    if (this.#fd === undefined) return;
    this.#writer.writeNow(this.#fd, this.#take());
    this.#throwNewFailure();
  }

  #append(line: string): void {
    this.#lines.push(line);
    this.#waiting += line.length + 1;
  }

  /** The waiting lines, if any; the buffer empty. */
  #take(): string[] | undefined {
    if (this.#lines.length === 0) return undefined;
    const lines = this.#lines;
    this.#lines = [];
    this.#waiting = 0;
    return lines;
  }

  /**
   * A full buffer: to the writer thread, or written here when there is none. A timer already set
   * stays: it then hands over whatever waits when it fires, a little early, instead of being
   * cleared and set again for every buffer.
   */
  #handOver(): void {
    const lines = this.#take();
    if (lines === undefined || this.#fd === undefined) return;
    this.#writer.hand(this.#fd, lines);
    this.#throwNewFailure();
  }

  #stopTimer(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * The process is going away: close the spans of unfinished runs, seal them and write everything.
   * Never throws.
   */
  sealInterruptedRuns(reason: string): void {
    try {
      if (this.#tracker.hasOpenRuns) {
        for (const event of this.#tracker.closeAll(reason, Date.now())) {
          this.#append(JSON.stringify(event));
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

  /** A buffer that waited its longest: to a thread already running, else written here. */
  #flushFromTimer(): void {
    this.#timer = undefined;
    try {
      if (this.#writer.running) this.#handOver();
      else this.flushSync();
    } catch (error) {
      this.#failure = error as Error;
    }
  }

  /**
   * Throws a write of this file that failed since the last look (on the writer thread, or here
   * through the writer), kept as this sink's failure.
   */
  #throwNewFailure(): void {
    if (this.#fd === undefined) return;
    const cause = this.#writer.takeFailure(this.#fd);
    if (cause === undefined) return;
    const failure = new TraceFileError({ file: this.path, action: 'write to', cause });
    this.#failure ??= failure;
    throw failure;
  }

  #throwFailure(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }
}
