import { open, stat } from 'node:fs/promises';
import type { TraceEvent } from '@agent-trace/core';
import { completeChunks, headBytes, readRange } from '@agent-trace/trace/library';
import { RunOutline, type RowLines } from './run-outline.js';

/** How many bytes a chunk of the scan reads at once: small enough to keep the server answering. */
const scanChunkBytes = 4 * 1024 * 1024;

/** What a {@link FileOutline.refresh} did. */
export interface OutlineRefresh {
  /** Events were read, or the file was rewritten and read again. */
  readonly changed: boolean;
  /** The byte budget ran out before the end of the file: call again to read on. */
  readonly more: boolean;
}

/** A line shaped like a trace event: the fields the outline places it by. */
function eventOf(line: string): TraceEvent | undefined {
  try {
    const value = JSON.parse(line) as Partial<Record<string, unknown>> | null;
    if (value === null || typeof value !== 'object') return undefined;
    const { run, event, seq, span_id, time } = value;
    return typeof run === 'string' &&
      typeof event === 'string' &&
      typeof seq === 'number' &&
      typeof span_id === 'string' &&
      typeof time === 'string'
      ? (value as unknown as TraceEvent)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The runs of one trace file as outlines, read from where the last read stopped: appended lines
 * are added, a torn last line waits until it is whole, and a rewritten file (shorter, or other
 * first bytes) is read again from the start. Only the outlines are kept; events are read back by
 * their byte offsets when the page asks for a window of rows.
 */
export class FileOutline {
  readonly absolute: string;
  /** The name the page knows the file by. */
  readonly name: string;
  #runs = new Map<string, RunOutline>();
  #scanned = 0;
  #head: Buffer = Buffer.alloc(0);
  #skipped = 0;
  #size = 0;
  #refreshing: Promise<OutlineRefresh> | undefined;
  #more = false;

  constructor(absolute: string, name: string) {
    this.absolute = absolute;
    this.name = name;
  }

  /** The runs read so far, in the order they first appeared. */
  get runs(): readonly RunOutline[] {
    return [...this.#runs.values()];
  }

  run(id: string): RunOutline | undefined {
    return this.#runs.get(id);
  }

  /** Bytes read, and the file's size when last looked at. */
  get progress(): { readonly scanned: number; readonly size: number; readonly skipped: number } {
    return { scanned: this.#scanned, size: this.#size, skipped: this.#skipped };
  }

  /** True while the file is being read: a read is under way, or the last stopped short of its end. */
  get reading(): boolean {
    return this.#more || this.#refreshing !== undefined;
  }

  /**
   * Reads what the file gained since the last read, up to about `budgetBytes` (a big file is read
   * over several calls, answering requests between them). One read at a time: a call while one
   * runs waits for it.
   */
  refresh(budgetBytes = 64 * 1024 * 1024): Promise<OutlineRefresh> {
    this.#refreshing ??= this.#read(budgetBytes).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #read(budgetBytes: number): Promise<OutlineRefresh> {
    const { size } = await stat(this.absolute);
    this.#size = size;
    const rewritten = size < this.#scanned || !this.#sameHead();
    if (rewritten) {
      this.#runs = new Map();
      this.#scanned = 0;
      this.#skipped = 0;
      this.#head = Buffer.alloc(0);
    }
    const from = this.#scanned;
    for (const { position, buffer } of completeChunks(this.absolute, from, size, scanChunkBytes)) {
      this.#lines(buffer, position);
      this.#scanned = position + buffer.length;
      if (this.#scanned - from >= budgetBytes) break;
      // Lets requests in between chunks.
      await new Promise(resolve => setImmediate(resolve));
    }
    if (this.#head.length < headBytes && this.#scanned > this.#head.length)
      this.#head = readRange(this.absolute, 0, Math.min(headBytes, this.#scanned));
    const more = this.#scanned < size && this.#scanned - from >= budgetBytes;
    this.#more = more;
    return { changed: rewritten || this.#scanned > from, more };
  }

  /** True when the file still begins with the bytes it began with when read. */
  #sameHead(): boolean {
    if (this.#head.length === 0) return true;
    return readRange(this.absolute, 0, this.#head.length).equals(this.#head);
  }

  #lines(buffer: Buffer, position: number): void {
    let start = 0;
    while (start < buffer.length) {
      let end = buffer.indexOf(0x0a, start);
      if (end === -1) end = buffer.length;
      const event = end > start ? eventOf(buffer.toString('utf8', start, end)) : undefined;
      if (event !== undefined) {
        let run = this.#runs.get(event.run);
        if (run === undefined)
          this.#runs.set(event.run, (run = new RunOutline(event.run, this.name)));
        run.add(event, position + start, end - start);
      } else if (end > start) this.#skipped++;
      start = end + 1;
    }
  }

  /**
   * The lines at the given places, read back from the file: nearby lines in one read each, so a
   * window of rows costs a few reads, not two a row.
   */
  async readLines(places: readonly RowLines[]): Promise<string[][]> {
    const spans: { offset: number; length: number; slot: [number, number] }[] = [];
    places.forEach((place, index) => {
      spans.push({ offset: place.startOffset, length: place.startLength, slot: [index, 0] });
      if (place.endOffset >= 0)
        spans.push({ offset: place.endOffset, length: place.endLength, slot: [index, 1] });
    });
    const lines = places.map(() => ['', '']);
    spans.sort((a, b) => a.offset - b.offset);
    const handle = await open(this.absolute, 'r');
    try {
      for (let first = 0; first < spans.length;) {
        let last = first;
        let end = spans[first]!.offset + spans[first]!.length;
        while (last + 1 < spans.length && spans[last + 1]!.offset - end < nearbyBytes) {
          last++;
          end = Math.max(end, spans[last]!.offset + spans[last]!.length);
        }
        const from = spans[first]!.offset;
        const buffer = Buffer.alloc(end - from);
        await handle.read(buffer, 0, buffer.length, from);
        for (const span of spans.slice(first, last + 1))
          lines[span.slot[0]]![span.slot[1]] = buffer.toString(
            'utf8',
            span.offset - from,
            span.offset - from + span.length,
          );
        first = last + 1;
      }
    } finally {
      await handle.close();
    }
    return lines;
  }
}

/** Lines closer than this are read in one read. */
const nearbyBytes = 64 * 1024;
