import type { TraceEvent } from '@agent-trace/core';
import type { DrawnRow } from '../../src/drawn-row.js';
import { rowKinds, type RowKind } from '../../src/row-kinds.js';
import { buildRow, type Row, type RowEvents } from './run-model.js';
import type { RunRows } from './run-rows.js';

/** Rows fetched at once: a window of the run. */
const windowRows = 200;
/** Drawn rows kept at most; the least recently fetched go first. */
const keptRows = 20_000;
/** Rows whose events are kept for the inspector at most. */
const keptEvents = 16;

/** Values fetched for rows, by seq, each with the outline it was fetched for; oldest go first. */
class KeptBySeq<T> {
  readonly #limit: number;
  readonly #kept = new Map<number, { readonly value: T; readonly generation: number }>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(seq: number): { readonly value: T; readonly generation: number } | undefined {
    return this.#kept.get(seq);
  }

  set(seq: number, value: T, generation: number): void {
    this.#kept.delete(seq);
    this.#kept.set(seq, { value, generation });
    for (const oldest of this.#kept.keys()) {
      if (this.#kept.size <= this.#limit) break;
      this.#kept.delete(oldest);
    }
  }
}

/**
 * A served run's rows: the outline (seq, depth, subtree end and kind of every row, four 32-bit
 * integers a row) held whole, drawn rows (times, status, title, summary) fetched from the server
 * in windows as the waterfall asks for them, keeping at most {@link keptRows}, and a row's events
 * fetched when the inspector asks for them. A million-row run costs the page its 16 MB outline
 * and a few windows of small rows; the events of a big run never come to the page whole.
 */
export class WindowedRows implements RunRows {
  readonly #query: string;
  readonly #onFetched: () => void;
  #outline: Int32Array = new Int32Array(0);
  #count = 0;
  #generation = 0;
  #startedAt = 0;
  #lastAt = 0;
  readonly #drawn = new KeptBySeq<DrawnRow>(keptRows);
  readonly #events = new KeptBySeq<RowEvents>(keptEvents);
  readonly #inFlight = new Set<string>();
  #bySeq: Int32Array | Map<number, number> | undefined;

  /** `onFetched` is told whenever rows or events arrive, to draw them. */
  constructor(file: string, run: string, onFetched: () => void) {
    this.#query = `file=${encodeURIComponent(file)}&run=${encodeURIComponent(run)}`;
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
    const kept = this.#drawn.get(this.seqAt(index));
    if (kept === undefined || kept.generation !== this.#generation) this.#wantWindow(index);
    if (kept === undefined) return undefined;
    const place = { index, depth: this.depthAt(index), subtreeEnd: this.subtreeEndAt(index) };
    return buildRow(kept.value, this.kindAt(index), place, this.#startedAt, this.#lastAt);
  }

  eventsAt(index: number): RowEvents | undefined {
    if (index < 0 || index >= this.#count) return undefined;
    const kept = this.#events.get(this.seqAt(index));
    if (kept === undefined || kept.generation !== this.#generation)
      this.#fetch<{ start: TraceEvent; end: TraceEvent | null }>(
        'events',
        index,
        1,
        (events, generation) => {
          const { start, end } = events[0] ?? {};
          if (start !== undefined)
            this.#events.set(start.seq, { start, end: end ?? undefined }, generation);
        },
      );
    return kept?.value;
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

  /** Fetches the window of drawn rows holding row `index`. */
  #wantWindow(index: number): void {
    const from = Math.floor(index / windowRows) * windowRows;
    this.#fetch<DrawnRow>('rows', from, windowRows, (rows, generation) => {
      for (const drawn of rows) this.#drawn.set(drawn.seq, drawn, generation);
    });
  }

  /**
   * Asks the server for `count` rows (drawn, or their events) from row `from` of the outline held
   * now, once at a time for each; `take` keeps them, told the outline they were fetched for.
   */
  #fetch<T>(
    what: 'rows' | 'events',
    from: number,
    count: number,
    take: (rows: readonly T[], generation: number) => void,
  ): void {
    const asked = `${what} ${from}`;
    if (this.#inFlight.has(asked)) return;
    this.#inFlight.add(asked);
    const generation = this.#generation;
    fetch(`/api/${what}?${this.#query}&from=${from}&to=${from + count}`)
      .then(response => {
        if (!response.ok) throw new Error(`The server answered ${response.status}.`);
        return response.json() as Promise<{ rows: T[] }>;
      })
      .then(({ rows }) => {
        take(rows, generation);
        this.#inFlight.delete(asked);
        this.#onFetched();
      })
      .catch(() => this.#inFlight.delete(asked));
  }
}
