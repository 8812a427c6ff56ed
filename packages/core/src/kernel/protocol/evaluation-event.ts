/** The trace event a scorer's judgment of a finished run is recorded as: part of the one `TraceEvent` schema. */
import { z } from 'zod';
import { envelope, TraceError } from './trace-envelope.js';

/**
 * A scorer's judgment of a finished run (online scoring's, in a live app): the scorer's `name`, its
 * `score` and `label`, why (`explanation`), or the `error` it threw. Written after the run's
 * `run_end`, with the run's ids; `parent_span_id` is the span it judges (the run's entry agent),
 * `span_id` its own, and its `seq` follows the run's last. A rerun never compares it. Exported over
 * OTLP as a `gen_ai.evaluation.result` event.
 */
export const EvaluationEvent = z.object({
  ...envelope,
  event: z.literal('evaluation'),
  /** The scorer's name. */
  name: z.string().min(1),
  /** In [0, 1]; none when the scorer threw. */
  score: z.number().min(0).max(1).optional(),
  /** `pass` for 1, `fail` for 0. */
  label: z.string().optional(),
  explanation: z.string().optional(),
  /** What the scorer threw (`type` `scorer_error`): the run is intact, the score missing. */
  error: TraceError.optional(),
  /** What the scorer's own model calls cost (a judge's), in US dollars. */
  cost_usd: z.number().nonnegative().optional(),
});
export type EvaluationEvent = z.infer<typeof EvaluationEvent>;
