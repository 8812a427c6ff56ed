import { z } from 'zod';

/**
 * One piece of what a model thought before it answered: an Anthropic thinking block, an OpenAI
 * Responses reasoning item. It is part of the answer as the provider gave it, never of its text:
 * kept on `llm_end` and on the assistant message, sent back to the provider with the rest of the
 * conversation as the provider requires (Anthropic wants thinking blocks back beside tool results
 * when thinking is on), and never compared or scored as answer text.
 */
export interface ReasoningPart {
  /** What the model says it thought (an OpenAI summary), maybe empty: only opaque content came. */
  readonly text: string;
  /**
   * Who wrote it (`anthropic`, `openai`): the opaque part means something only to them, so a
   * piece goes back only to the provider that wrote it (a fallback to another drops it).
   */
  readonly provider?: string;
  /** The provider's id of the piece (`rs_…`), when it gives one. */
  readonly id?: string;
  /**
   * What the provider requires back, unread by anyone else: an Anthropic thinking block's
   * `signature` or a redacted block's `data`, an OpenAI reasoning item's `encrypted_content`.
   */
  readonly opaque?: string;
  /** Set on a piece the provider sent only encrypted (Anthropic `redacted_thinking`). */
  readonly redacted?: true;
}

/** A reasoning part as the trace writes it (on `llm_end` and on assistant messages). */
export const TraceReasoningPart = z.object({
  text: z.string(),
  provider: z.string().optional(),
  id: z.string().optional(),
  opaque: z.string().optional(),
  redacted: z.literal(true).optional(),
});
export type TraceReasoningPart = z.infer<typeof TraceReasoningPart>;

/** What a part says beside its text: its provider, id, opaque content and redacted mark. */
export type ReasoningMarks = Omit<ReasoningPart, 'text'>;

/** The marks `part` has, copied, with none that is absent. */
export function reasoningMarks(part: ReasoningMarks): {
  -readonly [K in keyof ReasoningMarks]: ReasoningMarks[K];
} {
  const marks: { -readonly [K in keyof ReasoningMarks]: ReasoningMarks[K] } = {};
  if (part.provider !== undefined) marks.provider = part.provider;
  if (part.id !== undefined) marks.id = part.id;
  if (part.opaque !== undefined) marks.opaque = part.opaque;
  if (part.redacted === true) marks.redacted = true;
  return marks;
}

/** Reasoning parts in the trace's vocabulary (the same fields, copied so no caller shares them). */
export function toTraceReasoning(parts: readonly ReasoningPart[]): TraceReasoningPart[] {
  return parts.map(part => ({ text: part.text, ...reasoningMarks(part) }));
}

/** Reasoning parts read back from the trace: {@link toTraceReasoning}'s inverse. */
export function fromTraceReasoning(parts: readonly TraceReasoningPart[]): ReasoningPart[] {
  return toTraceReasoning(parts);
}
