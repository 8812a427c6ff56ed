import type { TraceEventOf } from '@agent-trace/core';

const cut = (text: string, length: number): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

/** How a score reads: thumbs for 1 and -1, the number otherwise. */
export function feedbackScoreText(score: number): string {
  if (score === 1) return '+1 (thumbs up)';
  if (score === -1) return '-1 (thumbs down)';
  return String(score);
}

/**
 * A person's feedback as lines say it, in `replay` and the viewer alike: its score, label,
 * comment, who gave it and from where (`feedback -1 (thumbs down) · wrong-order · "wrong order" ·
 * by ana via cli`).
 */
export function feedbackText(event: TraceEventOf<'feedback'>, length = 120): string {
  const parts = [
    ...(event.score === undefined ? [] : [feedbackScoreText(event.score)]),
    ...(event.label === undefined ? [] : [event.label]),
    ...(event.comment === undefined || event.comment === ''
      ? []
      : [JSON.stringify(cut(event.comment, length))]),
  ];
  const by = event.by === undefined ? `via ${event.source}` : `by ${event.by} via ${event.source}`;
  return `feedback ${[...parts, by].join(' · ')}`;
}

/**
 * A scorer's evaluation as lines say it: `evaluation tool_errors 0.5 · 1 of 2 tool calls failed`,
 * or what the scorer threw.
 */
export function evaluationText(event: TraceEventOf<'evaluation'>, length = 120): string {
  if (event.error !== undefined)
    return `evaluation ${event.name} failed: ${cut(event.error.message, length)}`;
  const parts = [
    `evaluation ${event.name} ${event.score ?? '?'}`,
    ...(event.explanation === undefined || event.explanation === ''
      ? []
      : [cut(event.explanation, length)]),
  ];
  return parts.join(' · ');
}

/** A judgment of a run after its end (a feedback or an evaluation) as lines say it. */
export function judgmentText(event: TraceEventOf<'feedback' | 'evaluation'>, length = 120): string {
  return event.event === 'feedback' ? feedbackText(event, length) : evaluationText(event, length);
}
