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
