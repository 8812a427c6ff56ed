import type { TraceEvent } from '@agent-trace/core';
import { rowKinds, type RowKind } from '../../src/row-kinds.js';
import { buildRow, type Row } from './run-model.js';
import type { RunRows } from './run-rows.js';

/** Rows fetched at once: a window of the run. */
const windowRows = 200;
/** Rows' events kept at most; the least recently fetched go first. */
const keptRows = 20_000;

interface Fetched {
  readonly start: TraceEvent;
  readonly end: TraceEvent | undefined;
  /** The outline it was fetched for: a row fetched for an older one is fetched again. */
  readonly generation: number;
}

/**
 * A served run's rows: the outline (seq, depth, subtree end and kind of every row, four 32-bit
 * integers a row) held whole, and rows' events fetched from the server in windows as the waterfall
 * asks for them, keeping at most {@link keptRows}. A million-row run costs the page its 16 MB
 * outline and a few windows of events.
 */
export class WindowedRows implements RunRows {
  readonly #address: string;
  readonly #onFetched: () => void;
  #outline: Int32Array = new Int32Array(0);
  #count = 0;
  #generation = 0;
  #startedAt = 0;
  #lastAt = 0;
  readonly #fetched = new Map<number, Fetched>();
  readonly #inFlight = new Set<number>();
  #bySeq: Int32Array | Map<number, number> | undefined;

  /** `onFetched` is told whenever rows arrive, to draw them. */
  constructor(file: string, run: string, onFetched: () => void) {
    this.#address = `/api/rows?file=${encodeURIComponent(file)}&run=${encodeURIComponent(run)}`;
    this.#onFetched = onFetched;
  }

  /** Takes a new outline of the run (it grew): rows already fetched show until fetched again. */
  setOutline(outline: Int32Array, startedAt: number, lastAt: number): void {
    this.#outline = outline;
    this.#count = outline.length / 4;
    this.#startedAt = startedAt;
    this.#lastAt = lastAt;
    this.#generation++;
    this.#bySeq = undefined;
  }

  get count(): number {
    return this.#count;
  }

  seqAt(index: number): number {
    return this.#outline[index] ?? -1;
  }

  depthAt(index: number): number {
    return this.#outline[this.#count + index] ?? 0;
  }

  subtreeEndAt(index: number): number {
    return this.#outline[this.#count * 2 + index] ?? index + 1;
  }

  kindAt(index: number): RowKind {
    return rowKinds[this.#outline[this.#count * 3 + index] ?? 0] ?? 'span';
  }

  rowAt(index: number): Row | undefined {
    if (index < 0 || index >= this.#count) return undefined;
    const fetched = this.#fetched.get(this.seqAt(index));
    if (fetched === undefined || fetched.generation !== this.#generation) this.#want(index);
    if (fetched === undefined) return undefined;
    const place = { index, depth: this.depthAt(index), subtreeEnd: this.subtreeEndAt(index) };
    return buildRow(fetched.start, fetched.end, place, this.#startedAt, this.#lastAt);
  }

  indexOfSeq(seq: number): number {
    this.#bySeq ??= this.#seqIndex();
    const found = this.#bySeq instanceof Map ? this.#bySeq.get(seq) : this.#bySeq[seq];
    return found === undefined || this.seqAt(found) !== seq ? -1 : found;
  }

  /** Seq to index: an array when seqs are dense (a run's are), else a map. */
  #seqIndex(): Int32Array | Map<number, number> {
    let largest = 0;
    for (let index = 0; index < this.#count; index++)
      largest = Math.max(largest, this.seqAt(index));
    if (largest > this.#count * 8 + 1024)
      return new Map(Array.from({ length: this.#count }, (_, index) => [this.seqAt(index), index]));
    const index = new Int32Array(largest + 1).fill(-1);
    for (let at = 0; at < this.#count; at++) index[this.seqAt(at)] = at;
    return index;
  }

  /** Fetches the window holding row `index`, once at a time. */
  #want(index: number): void {
    const window = Math.floor(index / windowRows);
    if (this.#inFlight.has(window)) return;
    this.#inFlight.add(window);
    const generation = this.#generation;
    const from = window * windowRows;
    fetch(`${this.#address}&from=${from}&to=${from + windowRows}`)
      .then(response => {
        if (!response.ok) throw new Error(`The server answered ${response.status}.`);
        return response.json() as Promise<{
          rows: { start: TraceEvent; end: TraceEvent | null }[];
        }>;
      })
      .then(({ rows }) => {
        for (const { start, end } of rows) {
          this.#fetched.delete(start.seq);
          this.#fetched.set(start.seq, { start, end: end ?? undefined, generation });
        }
        for (const seq of this.#fetched.keys()) {
          if (this.#fetched.size <= keptRows) break;
          this.#fetched.delete(seq);
        }
        this.#inFlight.delete(window);
        this.#onFetched();
      })
      .catch(() => this.#inFlight.delete(window));
  }
}
