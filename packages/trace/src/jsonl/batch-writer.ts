import { writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** The shared words: who may write now, and how many batches are written (or skipped) so far. */
const state = 0;
const done = 1;
const idle = 0;
const writing = 1;
const held = 2;

/** Batches handed to the thread and not yet written, past which the caller writes itself. */
const maxQueued = 8;
/** Longest wait for the thread's write in progress before writing anyway (a thread that died). */
const maxHoldWaitMs = 10_000;

/**
 * The writer thread: takes the turn (idle → writing), writes a batch the main thread has not
 * written itself, counts it, gives the turn back. It never writes while the main thread holds the
 * turn; a batch it finds already counted was written by the main thread and is skipped.
 */
const threadSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const shared = new Int32Array(workerData);
parentPort.on('message', ({ seq, fd, text }) => {
  if (Atomics.compareExchange(shared, ${state}, ${idle}, ${writing}) !== ${idle}) return;
  let failure;
  if (seq >= Atomics.load(shared, ${done})) {
    try {
      const data = Buffer.from(text, 'utf8');
      let written = 0;
      while (written < data.length) written += writeSync(fd, data, written);
    } catch (error) {
      failure = { fd, message: String(error && error.message), code: error && error.code };
    }
    Atomics.store(shared, ${done}, seq + 1);
  }
  Atomics.store(shared, ${state}, ${idle});
  Atomics.notify(shared, ${state});
  if (failure !== undefined) parentPort.postMessage(failure);
});
`;

interface Batch {
  readonly seq: number;
  readonly fd: number;
  /** Whole lines, each ending in a newline. */
  readonly text: string;
}

/** `lines` as one text, each ending in a newline; `lines` is used up. */
function joinLines(lines: string[]): string {
  lines.push('');
  return lines.join('\n');
}

function writeText(fd: number, text: string): void {
  const data = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < data.length) written += writeSync(fd, data, written);
}

/**
 * Writes batches of trace lines to their files, in the order given, from one background thread
 * per process where it can, so a run does not wait on the disk. Whoever needs everything on disk
 * now (a run's end, a signal, the process's exit) calls {@link BatchWriter.writeOut}: it takes
 * the turn from the thread (waiting for the write in progress, if any) and writes what the thread
 * has not, on the calling thread, so nothing depends on the thread to be written and nothing is
 * written twice. The thread starts with the first batch handed to it, so a short run that only
 * writes at its end never starts one. A writer made with `background: false` has no thread and
 * writes every batch when it is handed over.
 */
export class BatchWriter {
  readonly #shared = new Int32Array(new SharedArrayBuffer(8));
  /** Undefined until the first batch; null when there is no thread (none wanted, or none to be had). */
  #thread: Worker | undefined | null;
  /** Batches handed to the thread, oldest first, until they are counted as written. */
  readonly #queue: Batch[] = [];
  #nextSeq = 0;
  /** Write failures by file descriptor, until the sink of that file asks. */
  readonly #failures = new Map<number, Error>();

  /** @param background - false: no thread, every batch written by the caller. */
  constructor(background = true) {
    if (!background) this.#thread = null;
  }

  /**
   * Hands `lines` to the background thread to write to `fd`; writes them now where no thread
   * runs, or when the thread is behind by {@link maxQueued} batches.
   */
  hand(fd: number, lines: string[]): void {
    const thread = this.#threadOrNull();
    this.#forgetWritten();
    if (thread === null || this.#queue.length >= maxQueued) {
      this.writeNow(fd, lines);
      return;
    }
    // One string: cloned to the thread at a copy's cost (an array of lines costs twice that).
    const batch = { seq: this.#nextSeq++, fd, text: joinLines(lines) };
    this.#queue.push(batch);
    thread.postMessage(batch);
  }

  /** Whether batches go to a thread already running (a timer's small flush should not start one). */
  get running(): boolean {
    return this.#thread !== undefined && this.#thread !== null;
  }

  /** Writes everything handed over so far, then `lines` to `fd`, before returning. */
  writeNow(fd: number, lines?: string[]): void {
    this.writeOut();
    if (lines === undefined) return;
    try {
      writeText(fd, joinLines(lines));
    } catch (error) {
      this.#fail(fd, error as Error);
    }
  }

  /** Everything handed over so far is written when this returns. */
  writeOut(): void {
    if (this.#queue.length === 0) return;
    this.#hold();
    try {
      const written = Atomics.load(this.#shared, done);
      for (const batch of this.#queue) {
        if (batch.seq < written) continue;
        try {
          writeText(batch.fd, batch.text);
        } catch (error) {
          this.#fail(batch.fd, error as Error);
        }
      }
      this.#queue.length = 0;
      Atomics.store(this.#shared, done, this.#nextSeq);
    } finally {
      Atomics.store(this.#shared, state, idle);
    }
  }

  /** The first write to `fd` that failed since the last call, if any; forgotten once told. */
  takeFailure(fd: number): Error | undefined {
    if (this.#failures.size === 0) return undefined;
    const failure = this.#failures.get(fd);
    this.#failures.delete(fd);
    return failure;
  }

  /** Keeps the first failure of `fd` until its sink asks. */
  #fail(fd: number, error: Error): void {
    if (!this.#failures.has(fd)) this.#failures.set(fd, error);
  }

  /** Takes the turn from the thread, waiting while it writes. */
  #hold(): void {
    const giveUpAt = Date.now() + maxHoldWaitMs;
    for (;;) {
      const was = Atomics.compareExchange(this.#shared, state, idle, held);
      if (was !== writing) return;
      if (Date.now() > giveUpAt) {
        Atomics.store(this.#shared, state, held);
        return;
      }
      Atomics.wait(this.#shared, state, writing, 100);
    }
  }

  /** Drops the batches the thread has written from the queue. */
  #forgetWritten(): void {
    const written = Atomics.load(this.#shared, done);
    while (this.#queue.length > 0 && this.#queue[0]!.seq < written) this.#queue.shift();
  }

  #threadOrNull(): Worker | null {
    if (this.#thread !== undefined) return this.#thread;
    try {
      const thread = new Worker(threadSource, { eval: true, workerData: this.#shared.buffer });
      thread.on('message', (failure: { fd: number; message: string; code?: string }) => {
        this.#fail(failure.fd, Object.assign(new Error(failure.message), { code: failure.code }));
      });
      thread.on('error', () => {
        this.#thread = null; // what it held is written by the next writeOut
      });
      thread.unref(); // after the listeners, which would hold the process open again
      this.#thread = thread;
    } catch {
      this.#thread = null;
    }
    return this.#thread;
  }
}

let shared: BatchWriter | undefined;

/** The process's one batch writer (and its one thread), made on first use. */
export function batchWriter(): BatchWriter {
  return (shared ??= new BatchWriter());
}
