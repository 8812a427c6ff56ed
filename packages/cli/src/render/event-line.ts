import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import {
  errorKind,
  featureEventText,
  judgmentText,
  planReasons,
  transformText,
} from '@agent-trace/trace/model';
import type { Style } from './style.js';

const cut = (text: string, length = 70): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;
const show = (value: unknown): string => cut(JSON.stringify(value) ?? String(value));

/** A feature's own event, its transform, or a person's feedback, in a few words. */
function pointLine(
  event: TraceEventOf<'feature' | 'transform' | 'feedback' | 'evaluation'>,
  style: Style,
): string {
  if (event.event === 'feedback' || event.event === 'evaluation')
    return style.cyan(judgmentText(event, 70));
  return event.event === 'feature'
    ? `${style.cyan('feature')} ${featureEventText(event, 70)}`
    : style.yellow(transformText(event, 70));
}

const pointKinds: ReadonlySet<string> = new Set(['feature', 'transform', 'feedback', 'evaluation']);
const isPoint = (
  event: TraceEvent,
): event is TraceEventOf<'feature' | 'transform' | 'feedback' | 'evaluation'> =>
  pointKinds.has(event.event);

/** What an event says, in a few words. */
function summary(event: TraceEvent, style: Style): string {
  if (isPoint(event)) return pointLine(event, style);
  switch (event.event) {
    case 'run_start':
      if (event.resumed !== undefined) return `run resumes after seq ${event.resumed.after_seq}`;
      return event.forked_from === undefined
        ? `run starts: ${show(event.input)}`
        : `run starts, forked from run ${event.forked_from.run} after step ${event.forked_from.after_step}: ${show(event.input)}`;
    case 'agent_start':
      return `agent ${style.cyan(event.agent)} starts (${event.provider}/${event.model})`;
    case 'llm_start':
      return `${style.magenta('llm')} #${event.step} → ${event.model} (${event.message_count} messages${event.kept === undefined ? '' : `, rewritten by a feature after the first ${event.kept}`})`;
    case 'llm_end':
      return event.error !== undefined
        ? style.red(`llm #${event.step} ✗ ${errorKind(event.error)}`)
        : `${style.magenta('llm')} #${event.step} ← ${[event.text ? show(event.text) : '', ...(event.tool_calls ?? []).map(call => `${call.tool}(…)`)].filter(Boolean).join(' + ') || '(empty)'}  ${event.tok_prompt}→${event.tok_completion} tok  ${Math.round(event.duration_ms)} ms`;
    case 'tool_start':
      return `${style.yellow('tool')} ${event.tool} ${show(event.args)}`;
    case 'tool_end':
      return event.error !== undefined
        ? style.red(
            `tool ${event.tool} ✗ ${errorKind(event.error)}  ${Math.round(event.duration_ms)} ms`,
          )
        : `${style.yellow('tool')} ${event.tool} → ${show(event.result)}  ${Math.round(event.duration_ms)} ms`;
    case 'handoff_start':
      return `handoff ${event.from} → ${style.cyan(event.to)} (depth ${event.depth}, ${event.mode})`;
    case 'handoff_end':
      return `handoff ${event.from} → ${event.to} ends${event.error === undefined ? '' : style.red(` ✗ ${event.error.type}`)}`;
    case 'guardrail':
      return `guardrail ${event.guardrail} (${event.stage}) ${event.verdict}: ${cut(event.reason)}`;
    case 'retry':
      return `retry ${event.target} ${event.name} #${event.attempt} in ${event.delay_ms} ms${event.fallback === undefined ? '' : ` → ${event.fallback}`}`;
    case 'malformed_answer':
      return style.yellow(
        `malformed answer ${event.count} (${event.problem}) of llm #${event.step}: ${cut(event.message)}`,
      );
    case 'approval_requested':
      return style.yellow(
        `waits for approval: ${event.tool} ${show(event.args)} (${event.call_id})`,
      );
    case 'approval_resolved':
      return `approval ${event.decision}: ${event.tool} (${event.call_id})${event.by === undefined ? '' : ` by ${event.by}`}${event.reason === undefined ? '' : `: ${cut(event.reason)}`}`;
    case 'rate_limit_wait':
      return style.yellow(
        `waits ${Math.round(event.waited_ms)} ms for ${event.provider}'s rate limit (${event.reason}${event.by_others === true ? ', behind other runs' : ''})`,
      );
    case 'workflow_start':
      return `${style.bold('workflow')} ${style.cyan(event.workflow)} starts: ${event.steps.length} steps${event.plan_revision === undefined ? '' : ` (plan ${event.plan_revision})`}`;
    case 'workflow_step_start':
      return `step ${style.cyan(event.name)} starts${event.runs.name === undefined ? ` (${event.runs.kind})` : ` (${event.runs.kind} ${event.runs.name})`}${event.items === undefined ? '' : `, ${event.items} items at once`}: ${show(event.input)}`;
    case 'workflow_step_end':
      return event.status === 'completed'
        ? `step ${event.name} ${style.green('completed')} → ${show(event.output)}${event.attempts > 1 ? ` after ${event.attempts} attempts` : ''}`
        : event.status === 'skipped'
          ? style.dim(`step ${event.name} skipped: ${event.reason ?? ''}`)
          : event.status === 'interrupted'
            ? style.yellow(`step ${event.name} waits for approval`)
            : style.red(
                `step ${event.name} ✗ failed after ${event.attempts} attempts: ${cut(event.error?.message ?? '')}`,
              );
    case 'workflow_end':
      return `${style.bold('workflow')} ${event.workflow} ends: ${event.status === 'completed' ? style.green(event.status) : style.red(event.status)} (${event.steps.completed} completed, ${event.steps.failed} failed, ${event.steps.skipped} skipped)`;
    case 'plan':
      return event.verdict === 'accepted'
        ? `${style.bold('plan')} ${event.revision} accepted (after ${planReasons[event.reason]})`
        : style.yellow(`plan ${event.revision} refused: ${cut((event.problems ?? []).join('; '))}`);
    case 'span_start':
      return `${style.dim('span')} ${event.name}${event.service === undefined ? '' : ` (${event.service})`}`;
    case 'span_end':
      return event.error === undefined
        ? `${style.dim('span')} ${event.name} ends  ${Math.round(event.duration_ms)} ms`
        : style.red(
            `span ${event.name} ✗ ${event.error.type}  ${Math.round(event.duration_ms)} ms`,
          );
    case 'agent_end':
      return `agent ${style.cyan(event.agent)} ends: ${event.stop_reason}`;
    case 'run_end':
      return `${style.bold('run ends')}: ${event.stop_reason === 'completed' ? style.green(event.stop_reason) : style.red(event.stop_reason)}`;
  }
}

/** One event as one timeline line: offset from the run's start, seq, agent, what happened. */
export function renderEventLine(event: TraceEvent, runStartMs: number, style: Style): string {
  const offset = Math.max(0, Date.parse(event.time) - runStartMs);
  return `${style.dim(`+${String(offset).padStart(6)} ms`)}  ${String(event.seq).padStart(4)}  ${summary(event, style)}`;
}
