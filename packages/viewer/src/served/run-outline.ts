import type { TraceEvent } from '@agent-trace/core';
import { isJudgment } from '@agent-trace/core/spans';
import { SpanPlacer } from '@agent-trace/trace/model';
import { pointKinds, rowKinds, rowKindOf } from '../row-kinds.js';
import { HashedSpans } from './hashed-spans.js';
import { RunSummarizer } from '../run-summarizer.js';
import type { RunSummary } from '../viewer-data.js';

/** A row's place in the file: its start event's line, and its end event's when it has one. */
export interface RowLines {
  readonly startOffset: number;
  readonly startLength: number;
  /** -1 when the row has no end (a point event, or a span not ended yet). */
  readonly endOffset: number;
  readonly endLength: number;
}

/** A run's rows in tree order: for each row its seq, depth, subtree end and kind code. */
export interface TreeOrder {
  /** The run's version when it was ordered. */
  readonly version: number;
  /** Row numbers (in the order rows arrived) in tree order. */
  readonly order: Int32Array;
  readonly depth: Int32Array;
  readonly subtreeEnd: Int32Array;
}

const kindCodes = new Map(rowKinds.map((kind, code) => [kind, code]));
/** The codes of span kinds: rows that stay open until their end arrives. */
const spanCodes = new Set(rowKinds.flatMap((kind, code) => (pointKinds.has(kind) ? [] : [code])));

/** A typed array of at least `size` places holding `array`'s values. */
function grown<T extends Int32Array | Float64Array | Uint8Array>(array: T, size: number): T {
  if (array.length >= size) return array;
  const next = new (array.constructor as new (length: number) => T)(
    Math.max(size, array.length * 2),
  );
  next.set(array);
  return next;
}

/**
 * One run of a trace file as the served viewer keeps it: for each row (a span or a point event)
 * only where its events are in the file, its parent and its seq, in typed arrays, so a run of a
 * million rows costs tens of megabytes, not the gigabyte of its events. Its totals, agents and
 * handoffs are counted as events arrive.
 */
export class RunOutline {
  readonly run: string;
  readonly file: string;
  #count = 0;
  #parent = new Int32Array(16);
  #seq = new Int32Array(16);
  #kind = new Uint8Array(16);
  #startOffset = new Float64Array(16);
  #startLength = new Int32Array(16);
  #endOffset = new Float64Array(16);
  #endLength = new Int32Array(16);
  #roots: number[] = [];
  #version = 0;
  #tree: (TreeOrder & { readonly at: number }) | undefined;
  readonly #summarizer: RunSummarizer;
  readonly #placer = new SpanPlacer<number>(
    row => this.#endOffset[row] === -1 && spanCodes.has(this.#kind[row] ?? -1),
    new HashedSpans(),
  );

  constructor(run: string, file: string) {
    this.run = run;
    this.file = file;
    this.#summarizer = new RunSummarizer(run, file);
  }

  /** Adds an event read at `offset` (`length` bytes), placed by the one span-tree rule. */
  add(event: TraceEvent, offset: number, length: number): void {
    this.#version++;
    this.#summarizer.add(event);
    // What judges the run (feedback, evaluations) is its summary's, not a row of its tree.
    if (isJudgment(event)) return;
    const placement = this.#placer.place(event);
    if (placement.kind === 'end') {
      this.#endOffset[placement.own] = offset;
      this.#endLength[placement.own] = length;
      return;
    }
    // A point event before the run has any span hangs nowhere, as in the span tree.
    if (placement.kind === 'point' && placement.parent === undefined) return;
    const row = this.#count++;
    this.#reserve(this.#count);
    this.#parent[row] = placement.kind === 'root' ? -1 : (placement.parent ?? -1);
    if (placement.kind === 'root') this.#roots.push(row);
    if (placement.kind !== 'point') this.#placer.started(event, row, placement);
    this.#seq[row] = event.seq;
    this.#kind[row] = kindCodes.get(rowKindOf(event.event)) ?? 0;
    this.#startOffset[row] = offset;
    this.#startLength[row] = length;
    this.#endOffset[row] = -1;
    this.#endLength[row] = 0;
  }

  #reserve(size: number): void {
    this.#parent = grown(this.#parent, size);
    this.#seq = grown(this.#seq, size);
    this.#kind = grown(this.#kind, size);
    this.#startOffset = grown(this.#startOffset, size);
    this.#startLength = grown(this.#startLength, size);
    this.#endOffset = grown(this.#endOffset, size);
    this.#endLength = grown(this.#endLength, size);
  }

  /** The run as the runs list and the waterfall's header show it. */
  summary(): RunSummary {
    const summary = this.#summarizer.summary();
    return {
      ...summary,
      rowCount: this.#count,
      version: this.#version,
      graph:
        summary.graph.length > maxGraphFacts
          ? summary.graph.slice(0, maxGraphFacts)
          : summary.graph,
    };
  }

  /** Where row `row`'s events are in the file (a row number in arrival order). */
  lines(row: number): RowLines {
    return {
      startOffset: this.#startOffset[row] ?? 0,
      startLength: this.#startLength[row] ?? 0,
      endOffset: this.#endOffset[row] ?? -1,
      endLength: this.#endLength[row] ?? 0,
    };
  }

  /**
   * The rows in tree order (each part's root, then its children in the order they came). While
   * the file is still being read (`reading`), a tree up to {@link staleTreeMs} old is given again
   * instead of ordering a million rows on every request; the read's last change orders them all.
   */
  tree(reading = false): TreeOrder {
    const fresh = this.#tree?.version === this.#version;
    const recent = reading && performance.now() - (this.#tree?.at ?? -Infinity) < staleTreeMs;
    if (this.#tree === undefined || !(fresh || recent))
      this.#tree = {
        ...treeOrder(this.#parent, this.#roots, this.#count),
        version: this.#version,
        at: performance.now(),
      };
    return this.#tree;
  }

  /**
   * The outline the page holds: for each row in tree order its seq, depth, subtree end and kind
   * code, as four runs of 32-bit integers.
   */
  outline(reading = false): Int32Array {
    const { order, depth, subtreeEnd } = this.tree(reading);
    const n = order.length;
    const out = new Int32Array(n * 4);
    for (let index = 0; index < n; index++) {
      const row = order[index] ?? 0;
      out[index] = this.#seq[row] ?? 0;
      out[n * 3 + index] = this.#kind[row] ?? 0;
    }
    out.set(depth.subarray(0, n), n);
    out.set(subtreeEnd.subarray(0, n), n * 2);
    return out;
  }
}

/** How old a tree order may be while its file is still being read. */
const staleTreeMs = 2000;

/** The most handoffs and agent starts a summary carries for the agent graph. */
const maxGraphFacts = 20_000;

/** Rows in tree order from their parents: children of a row in the order they arrived. */
function treeOrder(
  parent: Int32Array,
  roots: readonly number[],
  n: number,
): Omit<TreeOrder, 'version'> {
  // Children by counting: children[first[p]] … children[first[p + 1] - 1] are p's children.
  const first = new Int32Array(n + 1);
  for (let row = 0; row < n; row++) {
    const p = parent[row]!;
    if (p >= 0) first[p + 1]!++;
  }
  for (let row = 0; row < n; row++) first[row + 1]! += first[row]!;
  const children = new Int32Array(Math.max(1, first[n]!));
  // Where each row's next child goes; the same array then holds subtree sizes.
  const filled = new Int32Array(n);
  filled.set(first.subarray(0, n));
  for (let row = 0; row < n; row++) {
    const p = parent[row]!;
    if (p >= 0) children[filled[p]!++] = row;
  }
  const order = new Int32Array(n);
  const depth = new Int32Array(n);
  const stack = new Int32Array(n + 1);
  const stackDepth = new Int32Array(n + 1);
  let placed = 0;
  for (const root of roots) {
    let top = 0;
    stack[top] = root;
    stackDepth[top++] = 0;
    while (top > 0) {
      const row = stack[--top]!;
      const level = stackDepth[top]!;
      order[placed] = row;
      depth[placed++] = level;
      for (let child = first[row + 1]! - 1; child >= first[row]!; child--) {
        stack[top] = children[child]!;
        stackDepth[top++] = level + 1;
      }
    }
  }
  // A subtree's size, children before parents: the reverse of tree order.
  const size = filled.fill(1);
  for (let index = n - 1; index >= 0; index--) {
    const p = parent[order[index]!]!;
    if (p >= 0) size[p]! += size[order[index]!]!;
  }
  const subtreeEnd = new Int32Array(n);
  for (let index = 0; index < n; index++) subtreeEnd[index] = index + size[order[index]!]!;
  return { order, depth, subtreeEnd };
}
