/**
 * A score of one run, judged after the run ended (an eval's scorer, or a person's feedback): what
 * a sink that exports (`otlpSink`, `otelSink`) sends as a `gen_ai.evaluation.result` event on the
 * span it judges.
 */
export interface Evaluation {
  /** The scorer's name. */
  readonly name: string;
  /** A scorer's is in [0, 1]; a person's feedback is as given (thumbs are 1 and -1). */
  readonly score?: number;
  /**
   * A scorer's is `pass` for a score of 1 and `fail` for 0 (a partial score has none); a
   * feedback's is the label the person gave.
   */
  readonly label?: string;
  /** Why: the scorer's reason. */
  readonly explanation?: string;
  /** The judged run's trace id, and the span judged (the run's entry agent). */
  readonly traceId: string;
  readonly spanId: string;
  /** The provider's id of the judged answer, when known. */
  readonly responseId?: string;
  /** Who judged, for a person's feedback (exported as `agent_trace.feedback.by`). */
  readonly by?: string;
  /** When it was judged (ms since the epoch). */
  readonly timeMs: number;
}
