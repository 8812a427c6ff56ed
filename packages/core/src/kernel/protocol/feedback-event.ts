/** The trace event a person's judgment of a run is recorded as: part of the one `TraceEvent` schema. */
import { z } from 'zod';
import { envelope } from './trace-envelope.js';

/** Where a feedback came from: an app's code, the CLI, or the served viewer. */
export const feedbackSources = ['code', 'cli', 'viewer'] as const;

/**
 * A person's judgment of a finished run: a score (thumbs are `1` and `-1`), a label, a comment,
 * who gave it and when (`time`). Written after the run's `run_end`, to the run's trace file, with
 * the run's ids; `parent_span_id` is the span it judges (the run's entry agent), `span_id` its
 * own. Its `seq` follows the run's last (a run's feedback is numbered on from its seal, and is
 * never counted in it). A rerun never compares it: it is not something the run did. Exported over
 * OTLP as a `gen_ai.evaluation.result` event named `feedback`.
 */
export const FeedbackEvent = z.object({
  ...envelope,
  event: z.literal('feedback'),
  /** The feedback's own id, unique in its trace. */
  id: z.string().min(1),
  /** The score given: any finite number (thumbs up `1`, thumbs down `-1`, a rating of 1 to 5). */
  score: z.number().optional(),
  /** A label given, e.g. `wrong-order`. */
  label: z.string().min(1).optional(),
  /** What the person wrote. */
  comment: z.string().optional(),
  /** Who gave it, as the app names people (a user id, an email, a team's name). */
  by: z.string().min(1).optional(),
  source: z.enum(feedbackSources),
});
export type FeedbackEvent = z.infer<typeof FeedbackEvent>;
