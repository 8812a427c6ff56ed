import type { RowKind } from '../../src/row-kinds.js';
import type { InspectedRow, Row, RowEvents } from './run-model.js';

/**
 * The rows of a run in tree order, as the waterfall reads them: their shape (seq, depth, subtree,
 * kind) for every row, each row as it is drawn when it is at hand, and a row's events for the
 * inspector. A page with the trace in it has every row and its events; a served page has the
 * outline, fetches drawn rows in windows as they come into view, and a row's events when it is
 * inspected.
 */
export interface RunRows {
  readonly count: number;
  seqAt(index: number): number;
  depthAt(index: number): number;
  /** The index just past the row's last descendant. */
  subtreeEndAt(index: number): number;
  kindAt(index: number): RowKind;
  /** The row as it is drawn, or undefined while it is being fetched. */
  rowAt(index: number): Row | undefined;
  /** The row's events, or undefined while they are being fetched. */
  eventsAt(index: number): RowEvents | undefined;
  /** The index of the row whose start event has this seq, or -1. */
  indexOfSeq(seq: number): number;
}

/** Every row of a run with its events, in memory. */
export class ListRows implements RunRows {
  readonly list: readonly InspectedRow[];
  #bySeq: Map<number, number> | undefined;

  constructor(list: readonly InspectedRow[]) {
    this.list = list;
  }

  get count(): number {
    return this.list.length;
  }

  seqAt(index: number): number {
    return this.list[index]?.seq ?? -1;
  }

  depthAt(index: number): number {
    return this.list[index]?.depth ?? 0;
  }

  subtreeEndAt(index: number): number {
    return this.list[index]?.subtreeEnd ?? index + 1;
  }

  kindAt(index: number): RowKind {
    return this.list[index]?.kind ?? 'span';
  }

  rowAt(index: number): Row | undefined {
    return this.list[index];
  }

  eventsAt(index: number): RowEvents | undefined {
    return this.list[index];
  }

  indexOfSeq(seq: number): number {
    this.#bySeq ??= new Map(this.list.map(row => [row.seq, row.index]));
    return this.#bySeq.get(seq) ?? -1;
  }
}

/** The indices of the rows left showing when collapsed spans (by seq) hide their descendants. */
export function visibleRows(rows: RunRows, collapsed: ReadonlySet<number>): Int32Array {
  if (collapsed.size === 0) {
    const all = new Int32Array(rows.count);
    for (let index = 0; index < all.length; index++) all[index] = index;
    return all;
  }
  const visible: number[] = [];
  for (let index = 0; index < rows.count;) {
    visible.push(index);
    index = collapsed.has(rows.seqAt(index)) ? rows.subtreeEndAt(index) : index + 1;
  }
  return Int32Array.from(visible);
}
