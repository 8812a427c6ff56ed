import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  FeedbackEvent,
  randomIds,
  TRACE_SCHEMA_VERSION,
  type feedbackSources,
  type IdGenerator,
  type TraceSink,
} from '@agent-trace/core';
import { Redactor, type RedactionOptions } from '@agent-trace/core/redaction';
import { TraceFileError } from '../jsonl/trace-file-error.js';
import { feedbackEvaluation } from '../otlp/judgment-evaluation.js';
import { FeedbackError } from './feedback-error.js';
import { runForFeedback } from './run-for-feedback.js';

/** A person's judgment of a run, as an app, the CLI or the viewer hands it over. */
export interface FeedbackInput {
  /** The run judged: its id (`RunResult.runId`). */
  readonly run: string;
  /** Any finite number: thumbs up `1`, thumbs down `-1`, a rating of 1 to 5. */
  readonly score?: number;
  /** A label, e.g. `wrong-order`. */
  readonly label?: string;
  /** What the person wrote. Secrets in it are replaced, as in a run's trace. */
  readonly comment?: string;
  /** Who gave it, as the app names people. */
  readonly by?: string;
}

/** Options of {@link recordFeedback}. */
export interface RecordFeedbackOptions {
  /** Where it came from. @defaultValue `'code'` */
  readonly source?: (typeof feedbackSources)[number];
  /**
   * Sinks that export (`otlpSink`, `otelSink`) to send it to as well, as a
   * `gen_ai.evaluation.result` event named `feedback` on the judged span. Export never fails it.
   */
  readonly export?: TraceSink | readonly TraceSink[];
  /** The clock the feedback's `time` is read from. @defaultValue the system's */
  readonly now?: () => Date;
  /** Where its span id (and its own id, `fb-` and the span id) comes from. @defaultValue random ids */
  readonly ids?: IdGenerator;
  /** How the comment's secrets are found, as a run's `redaction` option. @defaultValue the default rules */
  readonly redaction?: RedactionOptions;
}

/** Feedback given to one file in this process, one at a time: each numbers on from the last. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Records a person's judgment of a finished run as a `feedback` event appended to the trace file
 * the run was written to (found by streaming the file), and sends it to the given exporting
 * sinks. Returns the event. Throws a `FeedbackError` when the input is not a feedback (no score,
 * label or comment; a score that is not a finite number), the file has no such run, or the run has
 * not ended; and a `TraceFileError` when the file cannot be read or written. Nothing is written
 * then.
 *
 * @example
 * ```ts
 * const result = await run(desk, 'Where is my order?', { trace: jsonlSink('traces/desk.jsonl') });
 * await recordFeedback('traces/desk.jsonl', { run: result.runId, score: -1, comment: 'wrong order' });
 * ```
 */
export function recordFeedback(
  file: string,
  input: FeedbackInput,
  options: RecordFeedbackOptions = {},
): Promise<FeedbackEvent> {
  const key = resolve(file);
  const recorded = (queues.get(key) ?? Promise.resolve()).then(
    () => appendFeedback(file, input, options),
    () => appendFeedback(file, input, options),
  );
  const settled = recorded.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return recorded;
}

async function appendFeedback(
  file: string,
  input: FeedbackInput,
  options: RecordFeedbackOptions,
): Promise<FeedbackEvent> {
  checkInput(input);
  const judged = await runForFeedback(file, input.run);
  const comment =
    input.comment === undefined ? undefined : new Redactor(options.redaction).string(input.comment);
  const spanId = (options.ids ?? randomIds).spanId();
  const event = FeedbackEvent.parse({
    v: TRACE_SCHEMA_VERSION,
    seq: judged.lastSeq + 1,
    time: (options.now?.() ?? new Date()).toISOString(),
    run: judged.run,
    session: judged.session,
    trace_id: judged.traceId,
    span_id: spanId,
    parent_span_id: judged.spanId,
    agent: judged.agent,
    event: 'feedback',
    id: `fb-${spanId}`,
    ...(input.score === undefined ? {} : { score: input.score }),
    ...(input.label === undefined ? {} : { label: input.label }),
    ...(comment === undefined ? {} : { comment }),
    ...(input.by === undefined ? {} : { by: input.by }),
    source: options.source ?? 'code',
  });
  try {
    await appendFile(file, `${JSON.stringify(event)}\n`);
  } catch (cause) {
    throw new TraceFileError({ file, action: 'write feedback to', cause });
  }
  exportFeedback(event, options.export);
  return event;
}

function checkInput(input: FeedbackInput): void {
  const { run, score, label, comment, by } = input;
  if (typeof run !== 'string' || run === '')
    throw new FeedbackError('A feedback names the run it judges: give `run`, the run id.');
  if (score === undefined && label === undefined && (comment === undefined || comment === ''))
    throw new FeedbackError(
      `The feedback on run '${run}' says nothing: give a score, a label or a comment.`,
    );
  if (score !== undefined && (typeof score !== 'number' || !Number.isFinite(score)))
    throw new FeedbackError(
      `The feedback on run '${run}' has score ${String(score)}: a score is a finite number (1 and -1 for thumbs).`,
    );
  if (label === '' || by === '')
    throw new FeedbackError(
      `The feedback on run '${run}' has an empty ${label === '' ? 'label' : 'by'}: leave it out or name it.`,
    );
}

function exportFeedback(event: FeedbackEvent, sinks: RecordFeedbackOptions['export']): void {
  if (sinks === undefined) return;
  const list: readonly TraceSink[] = Array.isArray(sinks)
    ? (sinks as readonly TraceSink[])
    : [sinks as TraceSink];
  for (const sink of list) {
    try {
      sink.evaluated?.([feedbackEvaluation(event)]);
    } catch {
      // Export never fails the feedback; a sink that cannot send counts it.
    }
  }
}
