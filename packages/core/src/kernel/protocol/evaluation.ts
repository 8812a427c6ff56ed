/**
 * A score of one run, judged after the run ended (an eval's scorer): what a sink that exports
 * (`otlpSink`, `otelSink`) sends as a `gen_ai.evaluation.result` event on the span it judges.
 */
export interface Evaluation {
  /** The scorer's name. */
  readonly name: string;
  /** In [0, 1]. */
  readonly score: number;
  /** `pass` for a score of 1, `fail` for 0; a partial score has none. */
  readonly label?: 'pass' | 'fail';
  /** Why: the scorer's reason. */
  readonly explanation?: string;
  /** The judged run's trace id, and the span judged (the run's entry agent). */
  readonly traceId: string;
  readonly spanId: string;
  /** The provider's id of the judged answer, when known. */
  readonly responseId?: string;
  /** When it was judged (ms since the epoch). */
  readonly timeMs: number;
}
