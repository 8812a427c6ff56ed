import type { TraceEventFields } from '@agent-trace/core/record';
import { ownAttributes } from '../otlp/semconv.js';
import type { ForeignSpan, ForeignSpanEvent } from './foreign-span.js';

/** A span event that becomes an event of the run under the span's own: a guardrail's verdict. */
export interface ImportedPoint {
  readonly timeMs: number;
  /** The seq agent-trace recorded on it, when it exported it. */
  readonly seq?: number;
  readonly fields: TraceEventFields<'guardrail'>;
}

const stages = new Set(['input', 'output', 'tool']);
const verdicts = new Set(['allow', 'warn', 'block']);

function guardrailOf(event: ForeignSpanEvent): ImportedPoint | undefined {
  const { attributes } = event;
  const name = attributes['agent_trace.guardrail.name'];
  const stage = attributes['agent_trace.guardrail.stage'];
  const verdict = attributes['agent_trace.guardrail.verdict'];
  const reason = attributes['agent_trace.guardrail.reason'];
  if (typeof name !== 'string' || !stages.has(String(stage)) || !verdicts.has(String(verdict)))
    return undefined;
  const seq = attributes[ownAttributes.seq];
  return {
    timeMs: event.timeMs,
    ...(typeof seq === 'number' ? { seq } : {}),
    fields: {
      guardrail: name,
      stage: stage as 'input' | 'output' | 'tool',
      verdict: verdict as 'allow' | 'warn' | 'block',
      reason: typeof reason === 'string' ? reason : '',
    },
  };
}

/**
 * The span's events that are events of a run (its guardrails' verdicts, `agent_trace.guardrail`):
 * what a rerun decides again and compares, so an import keeps them. In the order they happened.
 */
export function pointsOf(span: ForeignSpan): ImportedPoint[] {
  return (span.events ?? [])
    .filter(event => event.name === 'agent_trace.guardrail')
    .map(guardrailOf)
    .filter(point => point !== undefined)
    .sort((a, b) => a.timeMs - b.timeMs || (a.seq ?? 0) - (b.seq ?? 0));
}

/** True when `point` happened before `span` started: by their seq when both have one, else by time. */
export function comesBefore(point: ImportedPoint, span: ForeignSpan): boolean {
  const seq = span.attributes[ownAttributes.seq];
  if (point.seq !== undefined && typeof seq === 'number') return point.seq < seq;
  return point.timeMs <= span.startMs;
}
