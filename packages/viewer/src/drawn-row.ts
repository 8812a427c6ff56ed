import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import { isSpanStart } from '@agent-trace/core/spans';
import { errorText, featureEventText, planReasons, transformText } from '@agent-trace/trace/model';
import { compact, count, cut } from './format.js';

/** How a row went: `open` is a span the trace never ended (a run still being written). */
export type RowStatus = 'ok' | 'warn' | 'error' | 'open';

/**
 * What the waterfall draws of a row, worked out from the event that opens it and the one that
 * closes it: its times, how it went, its title and its one-line summary. A served viewer sends
 * these for a window of rows instead of the rows' events, which the page fetches only for the row
 * it inspects; a page holding its trace whole works them out itself, with the same function.
 */
export interface DrawnRow {
  /** The start event's seq: a row's stable name within its run. */
  readonly seq: number;
  /** When the row began (epoch milliseconds). */
  readonly at: number;
  /** When its span ended (epoch milliseconds); null for point events and spans still open. */
  readonly endAt: number | null;
  /** Whether the row is a span (else a point event). */
  readonly span: boolean;
  readonly status: RowStatus;
  readonly title: string;
  readonly summary: string;
}

/**
 * A row's drawn fields from its opening event and, for a span that has ended, its closing one. An
 * event whose fields are not what its kind of event holds (a file written by hand, or by another
 * version) is drawn by its name, with a warning: the row still shows, and its events say why.
 */
export function drawnRow(start: TraceEvent, end: TraceEvent | undefined): DrawnRow {
  const span = isSpanStart(start.event);
  let status: RowStatus;
  let title: string;
  let summary: string;
  try {
    status = statusOf(start, end, span);
    title = titleOf(start, end);
    summary = summaryOf(start, end);
  } catch {
    status = 'warn';
    title = start.event;
    summary = 'not what this kind of event holds: see its events';
  }
  const endAt = end === undefined ? null : Date.parse(end.time);
  return { seq: start.seq, at: Date.parse(start.time), endAt, span, status, title, summary };
}

function statusOf(start: TraceEvent, end: TraceEvent | undefined, isSpan: boolean): RowStatus {
  if (start.event === 'guardrail')
    return start.verdict === 'block' ? 'error' : start.verdict === 'warn' ? 'warn' : 'ok';
  if (start.event === 'retry' || start.event === 'malformed_answer') return 'warn';
  if (start.event === 'approval_requested' || start.event === 'rate_limit_wait') return 'warn';
  if (start.event === 'approval_resolved') return start.decision === 'rejected' ? 'error' : 'ok';
  if (start.event === 'plan') return start.verdict === 'refused' ? 'warn' : 'ok';
  if (start.event === 'transform') return 'warn';
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
    case 'feature':
      return `${start.feature}.${start.name}`;
    case 'transform':
      return `transform by ${start.feature}`;
    default:
      return start.event;
  }
}

function summaryOf(start: TraceEvent, end: TraceEvent | undefined): string {
  if (end !== undefined && 'error' in end && end.error !== undefined)
    return `✗ ${errorText({ ...end.error, message: cut(end.error.message, 100) })}`;
  switch (start.event) {
    case 'run_start':
      return [runOrigin(start), runSummary(start, end), releaseOf(start)]
        .filter(part => part !== '')
        .join(' · ');
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
    case 'feature':
      return featureEventText(start);
    case 'transform':
      return transformText(start);
    case 'approval_requested':
      return `${start.kind} · ${cut(compact(start.args), 100)}`;
    case 'rate_limit_wait':
      return `waited ${Math.round(start.waited_ms)} ms (${start.reason}${start.by_others === true ? ', behind other runs' : ''}) before calling ${start.model}`;
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

/** The application's release the run was made by, when it gave one. */
function releaseOf(start: TraceEventOf<'run_start'>): string {
  return start.release === undefined ? '' : `release ${start.release}`;
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
  const reasoning = end.reasoning === undefined || end.reasoning.length === 0 ? '' : 'reasoned';
  const answer = [reasoning, text, calls.length === 0 ? '' : `calls ${calls.join(', ')}`]
    .filter(part => part !== '')
    .join(' + ');
  return `${end.tok_prompt}→${end.tok_completion} tok · ${answer || '(no answer)'}`;
}
