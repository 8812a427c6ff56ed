import type { TraceEventName } from './trace-event.js';

/** Start events and the end event that closes each. */
export const spanEndFor = {
  run_start: 'run_end',
  agent_start: 'agent_end',
  llm_start: 'llm_end',
  tool_start: 'tool_end',
  handoff_start: 'handoff_end',
  workflow_start: 'workflow_end',
  workflow_step_start: 'workflow_step_end',
  span_start: 'span_end',
} as const satisfies Partial<Record<TraceEventName, TraceEventName>>;

/** A start event name: one that opens a span. */
export type SpanStartName = keyof typeof spanEndFor;

/** True when the event opens a span that a matching end event must close. */
export function isSpanStart(name: string): name is SpanStartName {
  return Object.hasOwn(spanEndFor, name);
}

const spanEnds: ReadonlySet<string> = new Set(Object.values(spanEndFor));

/** True when the event closes a span; the other events that are not starts are points under one. */
export function isSpanEnd(name: string): boolean {
  return spanEnds.has(name);
}

/**
 * The kinds of event that judge a run after its end (a person's `feedback`, a scorer's
 * `evaluation`): not part of what the run did, so its seal does not count them, a rerun does not
 * compare them and its tree does not hold them.
 */
export const judgmentKinds: ReadonlySet<string> = new Set(['feedback', 'evaluation']);

/** True for an event that judges a run after its end (see {@link judgmentKinds}). */
export function isJudgment<Event extends { readonly event: string }>(
  event: Event,
): event is Extract<Event, { readonly event: 'feedback' | 'evaluation' }> {
  return judgmentKinds.has(event.event);
}
