import type { TraceEvent } from '@agent-trace/core';
import { buildRunTrees, emptyTally, isSpanNode, type SpanNode } from '@agent-trace/trace/model';
import { drawnRow, type DrawnRow, type RowStatus } from '../../src/drawn-row.js';
import { rowKindOf, type RowKind } from '../../src/row-kinds.js';
import type {
  EvaluationData,
  GraphFact,
  RunSummary,
  SummaryTotals,
} from '../../src/viewer-data.js';
import { RunSummarizer } from '../../src/run-summarizer.js';
import { ListRows, type RunRows } from './run-rows.js';

export { pointKinds, type RowKind } from '../../src/row-kinds.js';
export type { RowStatus } from '../../src/drawn-row.js';

/** One row of the waterfall as it is drawn: a span or a point event, in tree order. */
export interface Row {
  /** Position in {@link RunModel.rows}. */
  readonly index: number;
  readonly kind: RowKind;
  /** The start event's seq: a row's stable name within its run. */
  readonly seq: number;
  readonly depth: number;
  /** Milliseconds from the run's start. */
  readonly startMs: number;
  readonly endMs: number;
  /** Whether the row is a span that has ended (point events and open spans have not). */
  readonly ended: boolean;
  readonly status: RowStatus;
  readonly title: string;
  readonly summary: string;
  /** The index just past this row's last descendant: rows `index + 1 … subtreeEnd - 1` are inside it. */
  readonly subtreeEnd: number;
}

/** The events of a row: what the inspector shows of it. */
export interface RowEvents {
  /** The event that opens the span (or the point event itself). */
  readonly start: TraceEvent;
  /** The event that closes it; undefined for point events and open spans. */
  readonly end: TraceEvent | undefined;
}

/** A row with its events, as a page holding its trace whole keeps it. */
export type InspectedRow = Row & RowEvents;

/** Totals of a run (or of several): what its calls add up to, and how long it took. */
export type Totals = SummaryTotals;

/** A run of a trace, ready to show: its summary (as a served page lists it) and its rows. */
export interface RunModel extends RunSummary {
  /** Names the run among the page's runs: its file and id. */
  readonly key: string;
  readonly rows: RunRows;
  /** Every event of the run, when the page holds them (a served run's are fetched in windows). */
  readonly events: readonly TraceEvent[];
  /** What the agent graph reads: the run's agent starts and handoffs. */
  readonly graph: readonly GraphFact[];
}

/** A run's key among the page's runs. */
export function runKey(file: string, id: string): string {
  return `${file}\u0000${id}`;
}

/** Splits events into runs, in order of first appearance. */
export function eventsByRun(events: readonly TraceEvent[]): Map<string, TraceEvent[]> {
  const runs = new Map<string, TraceEvent[]>();
  for (const event of events) {
    let list = runs.get(event.run);
    if (list === undefined) runs.set(event.run, (list = []));
    list.push(event);
  }
  return runs;
}

/** Every run of the events, each as a tree of rows with its totals. */
export function buildRuns(
  events: readonly TraceEvent[],
  file = '',
  evaluations: readonly EvaluationData[] = [],
): RunModel[] {
  return [...eventsByRun(events).values()].map(run => {
    const built = buildRun(run, file);
    return evaluations.length === 0
      ? built
      : { ...built, evaluations: [...(built.evaluations ?? []), ...evaluations] };
  });
}

/** One run's events (in seq order) as a {@link RunModel}. */
export function buildRun(events: readonly TraceEvent[], file = ''): RunModel {
  const first = events[0];
  if (first === undefined) throw new Error('A run has at least one event.');
  const summarizer = new RunSummarizer(first.run, file);
  for (const event of events) summarizer.add(event);
  const summary = summarizer.summary();
  // Each part of the run (a resumed run has two) is a root of its own.
  const rows: InspectedRow[] = [];
  for (const { root } of buildRunTrees(events))
    flatten(root, 0, rows, summary.startedAt, summary.lastAt);
  return { ...summary, key: runKey(file, first.run), rows: new ListRows(rows), events };
}

function flatten(
  item: SpanNode | TraceEvent,
  depth: number,
  rows: InspectedRow[],
  runStart: number,
  lastAt: number,
): void {
  const index = rows.length;
  const start = isSpanNode(item) ? item.start : item;
  const end = isSpanNode(item) ? item.end : undefined;
  const place = { index, depth, subtreeEnd: index + 1 };
  const drawn = drawnRow(start, end);
  const row = buildRow(drawn, rowKindOf(start.event), place, runStart, lastAt, { start, end });
  rows.push(row);
  if (isSpanNode(item))
    for (const child of item.children) flatten(child, depth + 1, rows, runStart, lastAt);
  (row as { subtreeEnd: number }).subtreeEnd = rows.length;
}

/** Where a row is in its run's tree order. */
export interface RowPlace {
  readonly index: number;
  readonly depth: number;
  readonly subtreeEnd: number;
}

/**
 * A row from its drawn fields at its place in the tree; times are from the run's start, and a span
 * not ended reaches `lastAt`. Given its events, the row holds them too (built with them, not
 * copied after: a page builds every row of its trace).
 */
export function buildRow(
  drawn: DrawnRow,
  kind: RowKind,
  place: RowPlace,
  runStart: number,
  lastAt: number,
): Row;
export function buildRow(
  drawn: DrawnRow,
  kind: RowKind,
  place: RowPlace,
  runStart: number,
  lastAt: number,
  events: RowEvents,
): InspectedRow;
export function buildRow(
  drawn: DrawnRow,
  kind: RowKind,
  place: RowPlace,
  runStart: number,
  lastAt: number,
  events?: RowEvents,
): Row {
  const startMs = drawn.at - runStart;
  const endMs =
    drawn.endAt !== null
      ? drawn.endAt - runStart
      : drawn.span
        ? Math.max(startMs, lastAt - runStart)
        : startMs;
  return {
    index: place.index,
    kind,
    seq: drawn.seq,
    depth: place.depth,
    startMs,
    endMs,
    ended: drawn.endAt !== null,
    status: drawn.status,
    title: drawn.title,
    summary: drawn.summary,
    subtreeEnd: place.subtreeEnd,
    ...events,
  };
}

/** The sum of several runs' totals. */
export function sumTotals(runs: readonly RunModel[]): Totals {
  const sum = { ...emptyTally(), durationMs: 0 };
  for (const { totals } of runs)
    for (const key of Object.keys(sum) as (keyof Totals)[]) sum[key] += totals[key];
  return sum;
}
