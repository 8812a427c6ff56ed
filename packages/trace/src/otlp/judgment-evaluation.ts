import type { Evaluation, TraceEventOf } from '@agent-trace/core';

/** The attribute naming who gave a feedback (the GenAI conventions have none). */
export const feedbackByAttribute = 'agent_trace.feedback.by';

/**
 * A person's feedback as an evaluation named `feedback` of the span it judges: its score, its
 * label, its comment as the explanation, and who gave it.
 */
export function feedbackEvaluation(event: TraceEventOf<'feedback'>): Evaluation {
  return {
    name: 'feedback',
    ...(event.score === undefined ? {} : { score: event.score }),
    ...(event.label === undefined ? {} : { label: event.label }),
    ...(event.comment === undefined || event.comment === '' ? {} : { explanation: event.comment }),
    ...(event.by === undefined ? {} : { by: event.by }),
    traceId: event.trace_id,
    spanId: event.parent_span_id ?? event.span_id,
    timeMs: Date.parse(event.time),
  };
}

/**
 * A judgment of a run recorded in its trace (a person's feedback, a scorer's evaluation) as the
 * evaluation a backend is sent of the span it judges.
 */
export function judgmentEvaluation(event: TraceEventOf<'feedback' | 'evaluation'>): Evaluation {
  if (event.event === 'feedback') return feedbackEvaluation(event);
  const explanation =
    event.error === undefined ? event.explanation : `the scorer threw: ${event.error.message}`;
  return {
    name: event.name,
    ...(event.score === undefined ? {} : { score: event.score }),
    ...(event.label === undefined ? {} : { label: event.label }),
    ...(explanation === undefined || explanation === '' ? {} : { explanation }),
    traceId: event.trace_id,
    spanId: event.parent_span_id ?? event.span_id,
    timeMs: Date.parse(event.time),
  };
}
