import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import {
  buildRunTrees,
  emptyTally,
  errorText,
  isSpanNode,
  type SpanNode,
} from '@agent-trace/trace/model';
import { isSpanStart } from '@agent-trace/core/spans';
import { rowKindOf, type RowKind } from '../../src/row-kinds.js';
import type {
  EvaluationData,
  GraphFact,
  RunSummary,
  SummaryTotals,
} from '../../src/viewer-data.js';
import { RunSummarizer } from '../../src/run-summarizer.js';
import { compact, count, cut } from './format.js';
import { ListRows, type RunRows } from './run-rows.js';

export { pointKinds, type RowKind } from '../../src/row-kinds.js';

/** How a row went: `open` is a span the trace never ended (a run still being written). */
export type RowStatus = 'ok' | 'warn' | 'error' | 'open';

/** One row of the waterfall: a span or a point event, in tree order. */
export interface Row {
  /** Position in {@link RunModel.rows}. */
  readonly index: number;
  readonly kind: RowKind;
  /** The start event's seq: a row's stable name within its run. */
  readonly seq: number;
  readonly depth: number;
  /** The event that opens the span (or the point event itself). */
  readonly start: TraceEvent;
  /** The event that closes it; undefined for point events and open spans. */
  readonly end: TraceEvent | undefined;
  /** Milliseconds from the run's start. */
  readonly startMs: number;
  readonly endMs: number;
  readonly status: RowStatus;
  readonly title: string;
  readonly summary: string;
  /** The index just past this row's last descendant: rows `index + 1 … subtreeEnd - 1` are inside it. */
  readonly subtreeEnd: number;
}

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
  /** Scores of the run (an eval case's), each on the span it judges. */
  readonly evaluations?: readonly EvaluationData[];
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
    return evaluations.length === 0 ? built : { ...built, evaluations };
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
  const rows: Row[] = [];
  for (const { root } of buildRunTrees(events))
    flatten(root, 0, rows, summary.startedAt, summary.lastAt);
  return { ...summary, key: runKey(file, first.run), rows: new ListRows(rows), events };
}

function flatten(
  item: SpanNode | TraceEvent,
  depth: number,
  rows: Row[],
  runStart: number,
  lastAt: number,
): void {
  const index = rows.length;
  const start = isSpanNode(item) ? item.start : item;
  const end = isSpanNode(item) ? item.end : undefined;
  const row = buildRow(start, end, { index, depth, subtreeEnd: index + 1 }, runStart, lastAt);
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
 * One row from the event that opens it and the one that closes it (for a span that has ended), at
 * its place in the tree; times are from the run's start, and a span not ended reaches `lastAt`.
 */
export function buildRow(
  start: TraceEvent,
  end: TraceEvent | undefined,
  place: RowPlace,
  runStart: number,
  lastAt: number,
): Row {
  const isSpan = isSpanStart(start.event);
  const startMs = Date.parse(start.time) - runStart;
  const endMs =
    end !== undefined
      ? Date.parse(end.time) - runStart
      : isSpan
        ? Math.max(startMs, lastAt - runStart)
        : startMs;
  return {
    ...place,
    kind: rowKindOf(start.event),
    seq: start.seq,
    start,
    end,
    startMs,
    endMs,
    status: statusOf(start, end, isSpan),
    title: titleOf(start, end),
    summary: summaryOf(start, end),
  };
}

function statusOf(start: TraceEvent, end: TraceEvent | undefined, isSpan: boolean): RowStatus {
  if (start.event === 'guardrail')
    return start.verdict === 'block' ? 'error' : start.verdict === 'warn' ? 'warn' : 'ok';
  if (start.event === 'retry' || start.event === 'malformed_answer') return 'warn';
  if (start.event === 'approval_requested' || start.event === 'rate_limit_wait') return 'warn';
  if (start.event === 'approval_resolved') return start.decision === 'rejected' ? 'error' : 'ok';
  if (start.event === 'plan') return start.verdict === 'refused' ? 'warn' : 'ok';
  if (isSpan && end === undefined) return 'open';
  if (end === undefined) return 'ok';
  if ('error' in end && end.error !== undefined) return 'error';
  if (end.event === 'agent_end' || end.event === 'run_end')
    return end.stop_reason === 'completed' ? 'ok' : 'warn';
  if (end.event === 'workflow_end') return end.status === 'completed' ? 'ok' : 'warn';
  if (end.event === 'workflow_step_end') return end.status === 'interrupted' ? 'warn' : 'ok';
  return 'ok';
}

function titleOf(start: TraceEvent, end: TraceEvent | undefined): string {
  switch (start.event) {
    case 'run_start':
      return `run ${start.run.slice(0, 8)}`;
    case 'agent_start':
      return `agent ${start.agent}`;
    case 'llm_start':
      return `llm #${start.step}${start.attempt === undefined ? '' : ` attempt ${start.attempt}`} ${end?.event === 'llm_end' ? end.model : start.model}`;
    case 'tool_start':
      return `tool ${start.tool}${start.attempt === undefined ? '' : ` attempt ${start.attempt}`}`;
    case 'handoff_start':
      return `${start.mode === 'pass_control' ? 'handoff' : 'delegation'} ${start.from} → ${start.to}`;
    case 'guardrail':
      return `guardrail ${start.guardrail} (${start.stage}) ${start.verdict}`;
    case 'retry':
      return `retry ${start.target} ${start.name}, attempt ${start.attempt}`;
    case 'malformed_answer':
      return `malformed answer ${start.count} (${start.problem})`;
    case 'approval_requested':
      return `waits for approval: ${start.tool}`;
    case 'rate_limit_wait':
      return `rate limit: ${start.provider}`;
    case 'approval_resolved':
      return `approval ${start.decision}: ${start.tool}`;
    case 'workflow_start':
      return `workflow ${start.workflow}${start.plan_revision === undefined ? '' : ` (plan ${start.plan_revision})`}`;
    case 'workflow_step_start':
      return `step ${start.name}`;
    case 'plan':
      return `plan ${start.revision} ${start.verdict}`;
    case 'span_start':
      return `span ${start.name}`;
    default:
      return start.event;
  }
}

function summaryOf(start: TraceEvent, end: TraceEvent | undefined): string {
  if (end !== undefined && 'error' in end && end.error !== undefined)
    return `✗ ${errorText({ type: end.error.type, message: cut(end.error.message, 100) })}`;
  switch (start.event) {
    case 'run_start':
      return [runOrigin(start), runSummary(start, end)].filter(part => part !== '').join(' · ');
    case 'agent_start':
      return end?.event === 'agent_end' ? agentSummary(start, end) : `${start.model} · running`;
    case 'llm_start':
      return end?.event === 'llm_end' ? llmSummary(end) : 'waiting for the model';
    case 'tool_start':
      return end?.event === 'tool_end'
        ? `${cut(compact(start.args), 50)} → ${cut(compact(end.result), 70)}`
        : `${cut(compact(start.args), 60)} · running`;
    case 'handoff_start':
      return `depth ${start.depth} · ${start.mode}${start.routed_by === undefined ? '' : ` · routed by ${start.routed_by}`}`;
    case 'guardrail':
      return cut(start.reason, 120);
    case 'retry':
      return `${start.error.type} · after ${start.delay_ms} ms${start.fallback === undefined ? '' : ` · fallback ${start.fallback}`}`;
    case 'malformed_answer':
      return cut(start.message, 120);
    case 'approval_requested':
      return `${start.kind} · ${cut(compact(start.args), 100)}`;
    case 'rate_limit_wait':
      return `waited ${Math.round(start.waited_ms)} ms (${start.reason}) before calling ${start.model}`;
    case 'approval_resolved':
      return [start.by === undefined ? '' : `by ${start.by}`, start.reason ?? '']
        .filter(part => part !== '')
        .join(' · ');
    case 'workflow_start':
      return end?.event === 'workflow_end'
        ? `${end.status} · ${end.steps.completed} completed, ${end.steps.failed} failed, ${end.steps.skipped} skipped`
        : `${count(start.steps.length)} steps · running`;
    case 'workflow_step_start':
      return end?.event === 'workflow_step_end'
        ? stepSummary(start, end)
        : `${start.runs.kind} · running`;
    case 'plan':
      return start.problems === undefined
        ? `after ${planReasons[start.reason]}`
        : cut(start.problems.join('; '), 120);
    case 'span_start':
      return [
        start.span_kind ?? '',
        start.service ?? '',
        start.attributes === undefined ? '' : cut(compact(start.attributes), 100),
      ]
        .filter(part => part !== '')
        .join(' · ');
    default:
      return '';
  }
}

/** Why a planner was asked for a plan, in words. */
export const planReasons = {
  request: 'the request',
  refused_plan: 'a refused plan',
  step_failed: 'a failed step',
} as const;

function stepSummary(
  start: TraceEventOf<'workflow_step_start'>,
  end: TraceEventOf<'workflow_step_end'>,
): string {
  const runs = `${start.runs.kind}${start.runs.name === undefined ? '' : ` ${start.runs.name}`}`;
  const items = start.items === undefined ? '' : ` · ${start.items} items`;
  if (end.status === 'skipped') return `skipped: ${end.reason ?? ''}`;
  if (end.status === 'interrupted') return `${runs} · waits for approval`;
  return `${runs}${items} → ${cut(compact(end.output), 70)}`;
}

/** Where a run comes from, when it goes on from a pause or forks a recorded run. */
function runOrigin(start: TraceEventOf<'run_start'>): string {
  if (start.resumed !== undefined) return `resumed after seq ${start.resumed.after_seq}`;
  if (start.forked_from === undefined) return '';
  return `forked from run ${start.forked_from.run.slice(0, 8)} after step ${start.forked_from.after_step}`;
}

function runSummary(start: TraceEventOf<'run_start'>, end: TraceEvent | undefined): string {
  return end?.event === 'run_end'
    ? `stop: ${end.stop_reason} · ${count(end.counts.llm_calls)} llm calls · ${count(end.counts.tool_calls)} tool calls`
    : `running · input ${JSON.stringify(cut(start.input, 60))}`;
}

function agentSummary(start: TraceEventOf<'agent_start'>, end: TraceEventOf<'agent_end'>): string {
  const how =
    end.handed_off_to === undefined ? end.stop_reason : `handed off to ${end.handed_off_to}`;
  return `${start.model} · ${end.steps} step${end.steps === 1 ? '' : 's'} · ${how}`;
}

function llmSummary(end: TraceEventOf<'llm_end'>): string {
  const calls = (end.tool_calls ?? []).map(call => call.tool);
  const text = end.text === undefined || end.text === '' ? '' : JSON.stringify(cut(end.text, 60));
  const answer = [text, calls.length === 0 ? '' : `calls ${calls.join(', ')}`]
    .filter(part => part !== '')
    .join(' + ');
  return `${end.tok_prompt}→${end.tok_completion} tok · ${answer || '(no answer)'}`;
}

/** The sum of several runs' totals. */
export function sumTotals(runs: readonly RunModel[]): Totals {
  const sum = { ...emptyTally(), durationMs: 0 };
  for (const { totals } of runs)
    for (const key of Object.keys(sum) as (keyof Totals)[]) sum[key] += totals[key];
  return sum;
}
