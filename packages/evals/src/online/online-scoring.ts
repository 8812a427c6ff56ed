import {
  traceSinkVersion,
  type EvaluationEvent,
  type RunOptions,
  type TraceEvent,
  type TraceSink,
} from '@agent-trace/core';
import { hashString } from '@agent-trace/core/util';
import { judgmentEvaluation, memorySink } from '@agent-trace/trace';
import { runTotals } from '@agent-trace/trace/model';
import { asScore, type Scorer, type ScorerInput } from '../scorer.js';
import {
  evaluationEvents,
  scoredRun,
  type ScoredRun,
  type ScorerOutcome,
} from './evaluation-events.js';
import { ScoringQueue } from './scoring-queue.js';

/** Options of {@link onlineScoring}. */
export interface OnlineScoringOptions {
  readonly scorers: readonly Scorer[];
  /**
   * The share of runs scored, from 0 to 1, drawn by run id: the same run is always drawn alike,
   * in every process. @defaultValue 1
   */
  readonly sample?: number;
  /**
   * The most the scorers' own model calls (a judge's) may cost, in US dollars; once spent, runs
   * are no longer scored (counted in `stats.overBudget`). Runs being scored then finish, so it may
   * be passed by what they cost. @defaultValue no limit
   */
  readonly maxCostUsd?: number;
  /** Runs scored at once. @defaultValue 2 */
  readonly concurrency?: number;
  /** The most runs waiting to be scored; past it a run is not scored (`stats.dropped`). @defaultValue 1000 */
  readonly maxQueued?: number;
  /**
   * Where each score goes, as an `evaluation` event after the run's end: the app's sinks (a
   * `jsonlSink` appends it to the run's trace; `otlpSink` and `otelSink` export it as a
   * `gen_ai.evaluation.result` on the run's entry agent).
   */
  readonly to: TraceSink | readonly TraceSink[];
  /** The options the scorers' own runs (a judge's) take: prices, a budget. Their trace stays apart. */
  readonly runOptions?: RunOptions;
  /**
   * How long a finished run waits to be scored while other runs go on: scoring takes the moments
   * no run is going on, and after this long it goes ahead anyway. @defaultValue 1000
   */
  readonly maxDelayMs?: number;
  /** The clock evaluation events take their time from. @defaultValue the system's */
  readonly now?: () => Date;
}

/** What online scoring has done so far. */
export interface OnlineScoringStats {
  /** Runs drawn by the sample. */
  readonly sampled: number;
  /** Runs scored (every scorer ran; one that threw counts in `failedScorers`). */
  readonly scored: number;
  readonly failedScorers: number;
  /** Runs drawn but not scored: the budget was spent, or the queue was full. */
  readonly overBudget: number;
  readonly dropped: number;
  /** What the scorers' own model calls cost, in US dollars. */
  readonly costUsd: number;
  /** Runs being scored or waiting. */
  readonly pending: number;
}

/** A sink that scores finished runs in the background: see {@link onlineScoring}. */
export interface OnlineScoring extends TraceSink {
  readonly stats: OnlineScoringStats;
  /** Resolves when every run drawn so far is scored and written, or after `timeoutMs`. */
  drain(timeoutMs?: number): Promise<void>;
}

/** True when run `id` is in a sample of `share` of the runs (by its id's hash). */
export function inSample(id: string, share: number): boolean {
  if (share >= 1) return true;
  if (share <= 0) return false;
  return Number.parseInt(hashString(id).slice(6), 16) / 0x1_0000_0000 < share;
}

/**
 * Scores a live app's finished runs off the hot path. Given to a run as one of its sinks
 * (`trace: [jsonl, otlp, scoring]`), it keeps the events of the runs the sample draws and, once a
 * run has ended, scores it in the background (`concurrency` at a time), when no run is going on
 * (or after `maxDelayMs`): the run's result is never delayed, and a scorer that throws is recorded as such and never touches the run. Each score is
 * an `evaluation` event written to the `to` sinks after the run's end: in its JSONL trace, and
 * over OTLP next to its spans. `drain()` before the process ends (and before closing the sinks).
 *
 * @example
 * ```ts
 * const scoring = onlineScoring({ scorers: [toolErrorRate(), noLoops()], sample: 0.1, to: [jsonl, otlp] });
 * await run(desk, input, { trace: [jsonl, otlp, scoring] });
 * ```
 */
export function onlineScoring(options: OnlineScoringOptions): OnlineScoring {
  const share = options.sample ?? 1;
  if (!(share >= 0 && share <= 1))
    throw new RangeError(`onlineScoring: sample ${share} is a share of the runs, from 0 to 1.`);
  const to: readonly TraceSink[] = Array.isArray(options.to)
    ? (options.to as readonly TraceSink[])
    : [options.to as TraceSink];
  // Runs going on now: scoring waits for a quiet moment (at most `maxDelayMs`).
  let live = 0;
  const queue = new ScoringQueue(
    options.concurrency ?? 2,
    options.maxQueued ?? 1000,
    () => live === 0,
    options.maxDelayMs ?? 1000,
  );
  const held = new Map<string, TraceEvent[]>();
  const counts = { sampled: 0, scored: 0, failedScorers: 0, overBudget: 0, dropped: 0, costUsd: 0 };
  const ended = (events: TraceEvent[]): void => {
    if ((options.maxCostUsd ?? Infinity) <= counts.costUsd) {
      counts.overBudget++;
      return;
    }
    const queued = queue.add(async () => {
      // Its events begin with its run_start and end with its run_end: never undefined.
      const run = scoredRun(events);
      if (run === undefined) return;
      const outcomes = await scoreRun(run, events, options);
      for (const outcome of outcomes) {
        counts.costUsd += outcome.costUsd ?? 0;
        if (outcome.error !== undefined) counts.failedScorers++;
      }
      counts.scored++;
      for (const event of evaluationEvents(run, outcomes, options.now?.() ?? new Date()))
        deliver(event, to);
    });
    if (!queued) counts.dropped++;
  };
  return {
    version: traceSinkVersion,
    write(event) {
      if (event.event === 'run_end' && --live === 0) queue.poke();
      if (event.event === 'run_start') {
        live++;
        if (!inSample(event.run, share)) return;
        counts.sampled += event.resumed === undefined ? 1 : 0;
        held.set(event.run, [event]);
        return;
      }
      const events = held.get(event.run);
      if (events === undefined) return;
      events.push(event);
      if (event.event !== 'run_end') return;
      held.delete(event.run);
      // A run paused for approval is scored when it ends.
      if (event.stop_reason !== 'interrupted') ended(events);
    },
    flush: () => Promise.resolve(),
    get stats(): OnlineScoringStats {
      return { ...counts, pending: queue.pending };
    },
    drain: (timeoutMs = 10_000) => queue.idle(timeoutMs),
  };
}

/** Each scorer's outcome for a finished run: its score, or what it threw; never throws. */
async function scoreRun(
  run: ScoredRun,
  events: readonly TraceEvent[],
  options: OnlineScoringOptions,
): Promise<ScorerOutcome[]> {
  const input: Omit<ScorerInput, 'runOptions'> = {
    case: { id: run.start.run, input: run.start.input },
    output: run.end.output,
    trace: events,
    durationMs: run.end.duration_ms,
  };
  return Promise.all(
    options.scorers.map(async scorer => {
      const own = memorySink();
      try {
        const score = asScore(
          scorer.name,
          await scorer.score({ ...input, runOptions: { ...options.runOptions, trace: own } }),
        );
        return { name: scorer.name, score, costUsd: runTotals(own.events).costUsd };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { name: scorer.name, error: message, costUsd: runTotals(own.events).costUsd };
      }
    }),
  );
}

/** Writes an evaluation to the sinks: events to those that write them, evaluations to exporters. */
function deliver(event: EvaluationEvent, to: readonly TraceSink[]): void {
  for (const sink of to) {
    try {
      if (sink.writesEvents === false) sink.evaluated?.([judgmentEvaluation(event)]);
      else sink.write(event);
    } catch {
      // A sink that cannot take it counts it in its own errors; the run is long over.
    }
  }
}
