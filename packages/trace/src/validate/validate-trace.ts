import { isJudgment, type TraceEvent } from '@agent-trace/core';
import type { TraceEventEnvelope } from '@agent-trace/core/record';
import { isSpanEnd, isSpanStart, spanEndFor } from '@agent-trace/core/spans';
import { describeNewerContent, NewerContentLog, NewerEvent } from '../jsonl/newer-content.js';
import { readTraceLine, schemaProblem } from '../jsonl/parse-trace-line.js';
import { readTraceLineBatches } from '../jsonl/read-trace-lines.js';
import { TraceParseError } from '../jsonl/trace-parse-error.js';

/** What kind of rule a trace breaks. */
export type TraceProblemKind =
  | 'invalid_line'
  | 'invalid_event'
  | 'torn_tail'
  | 'not_utf8'
  | 'seq_gap'
  | 'seq_duplicate'
  | 'missing_run_start'
  | 'unpaired_start'
  | 'unmatched_end'
  | 'unknown_parent'
  | 'missing_run_end'
  | 'bad_seal'
  | 'event_after_seal'
  | 'judgment_before_end';

/** One broken rule, with where it is. */
export interface TraceProblem {
  readonly kind: TraceProblemKind;
  readonly message: string;
  /** 1-based line in the file, when the problem has one. */
  readonly line?: number;
  readonly run?: string;
  readonly seq?: number;
}

/** Something worth knowing that breaks no rule: content written by a newer minor version. */
export interface TraceWarning {
  readonly kind: 'newer_content';
  readonly message: string;
  readonly line?: number;
}

/** A run found in the trace. */
export interface TraceRunSummary {
  readonly run: string;
  readonly agent: string;
  readonly events: number;
  /** The stop reason of its `run_end`; undefined when the run is not sealed. */
  readonly stopReason: string | undefined;
}

/** The outcome of {@link validateTrace} / {@link validateTraceFile}. */
export interface TraceValidationReport {
  readonly valid: boolean;
  readonly events: number;
  readonly runs: readonly TraceRunSummary[];
  readonly problems: readonly TraceProblem[];
  /** Warnings do not make a trace invalid. */
  readonly warnings: readonly TraceWarning[];
}

interface RunCheck {
  readonly run: string;
  readonly agent: string;
  expectedSeq: number;
  /** Every seq below this was seen: what a sealed run keeps instead of its set of seqs. */
  seenBelow: number;
  readonly seen: Set<number>;
  readonly open: Map<string, { event: TraceEvent; line: number | undefined }>;
  readonly known: Set<string>;
  sealed: boolean;
  stopReason: string | undefined;
  events: number;
  /** The spans a judgment may judge: the run's own, and its entry agent's. */
  runSpan?: string;
  entrySpan?: string;
  /** The seq of the seal, once sealed. */
  sealSeq?: number;
}

/**
 * Checks events against the trace rules, run by run: seq starts at 0 and has no gaps or
 * duplicates; every start has its end (and every end a start of the same kind); parents exist;
 * the run is sealed by a `run_end` whose `last_seq` and counts match; nothing follows the seal,
 * except the next part of a run paused for approval (a `run_start` marked `resumed`) and the
 * judgments of the run (people's `feedback`, scorers' `evaluation`), which judge its entry agent
 * and are numbered on from the seal.
 */
export class TraceValidator {
  readonly #runs = new Map<string, RunCheck>();
  readonly #problems: TraceProblem[] = [];
  readonly #warnings: TraceWarning[] = [];
  #events = 0;

  /** Records a problem found outside the event rules (a bad line, a torn tail). */
  report(problem: TraceProblem): void {
    this.#problems.push(problem);
  }

  /** Records a warning: it does not make the trace invalid. */
  warn(warning: TraceWarning): void {
    this.#warnings.push(warning);
  }

  /** Checks one event; `line` is where it is in the file, when it comes from one. */
  check(event: TraceEvent, line?: number): void {
    if (isJudgment(event)) {
      this.#checkJudgment(event, line);
      return;
    }
    const run = this.#runOf(event, line);
    if (event.event === 'run_start') run.runSpan ??= event.span_id;
    else if (event.event === 'agent_start' && event.parent_span_id === run.runSpan)
      run.entrySpan ??= event.span_id;
    this.#checkSpan(run, event, { line, run: event.run, seq: event.seq });
  }

  /**
   * Checks what can be checked of an event of a kind a newer minor version wrote: its place in
   * the seq and the seal's count, and its parent. A `*_start` of it may be a later event's parent.
   */
  checkNewer(envelope: TraceEventEnvelope, line?: number): void {
    const run = this.#runOf(envelope, line);
    this.#checkParent(run, envelope, { line, run: envelope.run, seq: envelope.seq });
    if (envelope.event.endsWith('_start')) run.known.add(envelope.span_id);
  }

  /**
   * A judgment (a feedback, an evaluation) follows its run's seal, after its seq, and judges its
   * entry agent (or the run).
   */
  #checkJudgment(
    event: TraceEvent & { event: 'feedback' | 'evaluation' },
    line: number | undefined,
  ): void {
    this.#events++;
    const at = { line, run: event.run, seq: event.seq };
    const run = this.#runs.get(event.run);
    const which = event.event === 'feedback' ? `feedback ${event.id}` : `evaluation ${event.name}`;
    const said = `${which} (seq ${event.seq}) judges run ${event.run}`;
    if (run === undefined || !run.sealed || run.sealSeq === undefined) {
      const why =
        run === undefined ? 'which no earlier line starts' : 'which has not ended by then';
      this.report({
        ...at,
        kind: 'judgment_before_end',
        message: `${said}, ${why}: a ${event.event} follows its run's run_end.`,
      });
    } else if (event.seq <= run.sealSeq) {
      this.report({
        ...at,
        kind: 'seq_duplicate',
        message: `${said} with a seq not after the seal's (${run.sealSeq}): a ${event.event} is numbered on from its run's last event.`,
      });
    } else if (event.parent_span_id !== run.entrySpan && event.parent_span_id !== run.runSpan) {
      this.report({
        ...at,
        kind: 'unknown_parent',
        message: `${said} and names span ${String(event.parent_span_id)}, which is not the run's nor its entry agent's.`,
      });
    }
  }

  #runOf(event: TraceEventEnvelope, line: number | undefined): RunCheck {
    this.#events++;
    const at = { line, run: event.run, seq: event.seq };
    let run = this.#runs.get(event.run);
    if (run === undefined) {
      if (event.event !== 'run_start') {
        this.report({
          ...at,
          kind: 'missing_run_start',
          message: `run ${event.run} begins with '${event.event}' (seq ${event.seq}), not with 'run_start': the start of the run is missing.`,
        });
      }
      run = {
        run: event.run,
        agent: event.agent,
        expectedSeq: 0,
        seenBelow: 0,
        seen: new Set(),
        open: new Map(),
        known: new Set(),
        sealed: false,
        stopReason: undefined,
        events: 0,
      };
      this.#runs.set(event.run, run);
    }
    run.events++;
    if (run.sealed && resumes(run, event)) run.sealed = false;
    if (run.sealed) {
      this.report({
        ...at,
        kind: 'event_after_seal',
        message: `'${event.event}' (seq ${event.seq}) comes after the run_end that sealed run ${event.run}.`,
      });
    }
    this.#checkSeq(run, event, at);
    return run;
  }

  /** Finishes the checks (unpaired starts, missing seals) and returns the report. */
  finish(): TraceValidationReport {
    for (const run of this.#runs.values()) {
      for (const [spanId, { event, line }] of run.open) {
        if (event.event === 'run_start') continue;
        this.report({
          kind: 'unpaired_start',
          line,
          run: run.run,
          seq: event.seq,
          message: `'${event.event}' (seq ${event.seq}, span ${spanId}) has no '${spanEndFor[event.event as keyof typeof spanEndFor]}'.`,
        });
      }
      if (!run.sealed) {
        this.report({
          kind: 'missing_run_end',
          run: run.run,
          message: `run ${run.run} has no run_end: it did not finish (crash or kill?) or the file was cut.`,
        });
      }
    }
    return {
      valid: this.#problems.length === 0,
      events: this.#events,
      runs: [...this.#runs.values()].map(run => ({
        run: run.run,
        agent: run.agent,
        events: run.events,
        stopReason: run.stopReason,
      })),
      problems: this.#problems,
      warnings: this.#warnings,
    };
  }

  #checkSeq(
    run: RunCheck,
    event: TraceEventEnvelope,
    at: Omit<TraceProblem, 'kind' | 'message'>,
  ): void {
    if (event.seq < run.seenBelow || run.seen.has(event.seq)) {
      this.report({
        ...at,
        kind: 'seq_duplicate',
        message: `seq ${event.seq} appears twice in run ${event.run}.`,
      });
      return;
    }
    if (event.seq > run.expectedSeq) {
      const missing =
        event.seq - run.expectedSeq === 1
          ? `${run.expectedSeq}`
          : `${run.expectedSeq} to ${event.seq - 1}`;
      this.report({
        ...at,
        kind: 'seq_gap',
        message: `seq jumps from ${run.expectedSeq - 1} to ${event.seq} in run ${event.run}: events ${missing} are missing.`,
      });
    }
    run.seen.add(event.seq);
    run.expectedSeq = Math.max(run.expectedSeq, event.seq + 1);
  }

  #checkParent(
    run: RunCheck,
    event: TraceEventEnvelope,
    at: Omit<TraceProblem, 'kind' | 'message'>,
  ): void {
    // After the seal the event is wrong already (event_after_seal); a sealed run keeps no spans.
    if (run.sealed) return;
    if (event.parent_span_id !== null && !run.known.has(event.parent_span_id)) {
      this.report({
        ...at,
        kind: 'unknown_parent',
        message: `'${event.event}' (seq ${event.seq}) names parent span ${event.parent_span_id}, which no earlier event of run ${event.run} opened.`,
      });
    }
  }

  #checkSpan(run: RunCheck, event: TraceEvent, at: Omit<TraceProblem, 'kind' | 'message'>): void {
    this.#checkParent(run, event, at);
    if (isSpanStart(event.event)) {
      run.known.add(event.span_id);
      run.open.set(event.span_id, { event, line: at.line });
      return;
    }
    if (!isSpanEnd(event.event)) return;
    const start = run.open.get(event.span_id);
    const expectedEnd =
      start === undefined ? undefined : spanEndFor[start.event.event as keyof typeof spanEndFor];
    if (start === undefined || expectedEnd !== event.event) {
      this.report({
        ...at,
        kind: 'unmatched_end',
        message: `'${event.event}' (seq ${event.seq}, span ${event.span_id}) closes no open span of its kind.`,
      });
      return;
    }
    run.open.delete(event.span_id);
    if (event.event === 'run_end') this.#checkSeal(run, event, at);
  }

  #checkSeal(
    run: RunCheck,
    event: TraceEvent & { event: 'run_end' },
    at: Omit<TraceProblem, 'kind' | 'message'>,
  ): void {
    run.sealed = true;
    run.sealSeq = event.seq;
    run.stopReason = event.stop_reason;
    compact(run);
    if (event.last_seq !== event.seq) {
      this.report({
        ...at,
        kind: 'bad_seal',
        message: `run_end says last_seq ${event.last_seq}, but it is seq ${event.seq}.`,
      });
    }
    if (event.counts.events !== run.events) {
      this.report({
        ...at,
        kind: 'bad_seal',
        message: `run_end counts ${event.counts.events} events, but run ${event.run} has ${run.events}.`,
      });
    }
  }
}

/**
 * What a sealed run keeps: a count instead of its seqs when they run 0 to the seal without a gap,
 * and its span ids only when it paused (a resumed part's events may name them). A trace of many
 * runs is then checked in the memory of its open runs.
 */
function compact(run: RunCheck): void {
  if (run.seenBelow + run.seen.size === run.expectedSeq) {
    run.seenBelow = run.expectedSeq;
    run.seen.clear();
  }
  if (run.stopReason !== 'interrupted') run.known.clear();
}

/**
 * True when `event` goes on with a run its seal paused: a `run_start` marked `resumed` right after
 * a `run_end` that stopped `interrupted`. The run is then one run in two parts.
 */
function resumes(run: RunCheck, event: TraceEventEnvelope): boolean {
  const resumed = (event as { resumed?: { after_seq?: unknown } }).resumed;
  return (
    event.event === 'run_start' &&
    run.stopReason === 'interrupted' &&
    resumed?.after_seq === run.expectedSeq - 1
  );
}

/** Validates events already in memory (e.g. a `memorySink`'s). */
export function validateTrace(events: Iterable<TraceEvent>): TraceValidationReport {
  const validator = new TraceValidator();
  for (const event of events) {
    // Against the schema too, as a file's lines are: an event that would not read back is found
    // here, not first by `agent-trace validate`.
    const wrong = schemaProblem(event);
    if (wrong !== undefined)
      validator.report({
        kind: 'invalid_event',
        ...(typeof event.run === 'string' ? { run: event.run } : {}),
        ...(typeof event.seq === 'number' ? { seq: event.seq } : {}),
        message: `${wrong} A file of it would not read back.`,
      });
    validator.check(event);
  }
  return validator.finish();
}

/**
 * Validates a JSONL trace file: every line against the schema (all bad lines are reported, not
 * just the first), a torn tail, then the rules of {@link TraceValidator}. Event kinds and fields
 * a newer minor version wrote are warnings, not problems. Throws a
 * `TraceFileError` only when the file cannot be read at all.
 */
export async function validateTraceFile(file: string): Promise<TraceValidationReport> {
  const validator = new TraceValidator();
  const newer = new NewerContentLog(content =>
    validator.warn({
      kind: 'newer_content',
      line: content.line,
      message: describeNewerContent(content),
    }),
  );
  const batches = readTraceLineBatches(
    file,
    tail =>
      validator.report({
        kind: 'torn_tail',
        line: tail.line,
        message: `the last line has no newline (${tail.length} characters): a write was cut short, probably by a crash.`,
      }),
    at =>
      validator.report({
        kind: 'not_utf8',
        line: at.line,
        message: `bytes that are not UTF-8 (the first on this line): the file was damaged, or written in another encoding. Readers take them as U+FFFD.`,
      }),
  );
  for await (const { firstLine, texts } of batches) {
    texts.forEach((text, index) => {
      if (text === '') return;
      const line = firstLine + index;
      let event: TraceEvent | NewerEvent;
      try {
        event = readTraceLine(text, file, line, newer);
      } catch (error) {
        if (!(error instanceof TraceParseError)) throw error;
        validator.report({ kind: 'invalid_line', line, message: error.message });
        return;
      }
      if (event instanceof NewerEvent) validator.checkNewer(event.envelope, line);
      else validator.check(event, line);
    });
  }
  return validator.finish();
}
