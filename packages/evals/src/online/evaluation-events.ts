import {
  randomIds,
  TRACE_SCHEMA_VERSION,
  type EvaluationEvent,
  type TraceEvent,
  type TraceEventOf,
} from '@agent-trace/core';
import type { Score } from '../scorer.js';

/** What an evaluation event of a run needs of it: its seal, its start and its entry agent. */
export interface ScoredRun {
  readonly start: TraceEventOf<'run_start'>;
  readonly end: TraceEventOf<'run_end'>;
  /** The span judged: the run's entry agent's, else the run's own. */
  readonly spanId: string;
  readonly agent: string;
}

/** What a run's events say of it for its evaluations; undefined without a start and a seal. */
export function scoredRun(events: readonly TraceEvent[]): ScoredRun | undefined {
  const start = events.find(event => event.event === 'run_start');
  const end = events.findLast(event => event.event === 'run_end');
  if (start?.event !== 'run_start' || end?.event !== 'run_end') return undefined;
  const entry = events.find(
    event => event.event === 'agent_start' && event.parent_span_id === start.span_id,
  );
  return {
    start,
    end,
    spanId: entry?.span_id ?? start.span_id,
    agent: entry?.agent ?? start.agent,
  };
}

/** One scorer's outcome for a run: its score, or what it threw; and what its own calls cost. */
export interface ScorerOutcome {
  readonly name: string;
  readonly score?: Score;
  readonly error?: string;
  readonly costUsd?: number;
}

/**
 * The evaluation events of a run's scores, numbered on from its seal (the `k`-th after it is
 * `last_seq + k`), each on the span it judges.
 */
export function evaluationEvents(
  run: ScoredRun,
  outcomes: readonly ScorerOutcome[],
  now: Date,
): EvaluationEvent[] {
  return outcomes.map((outcome, index) => ({
    v: TRACE_SCHEMA_VERSION,
    seq: run.end.last_seq + 1 + index,
    time: now.toISOString(),
    run: run.start.run,
    session: run.start.session,
    trace_id: run.start.trace_id,
    span_id: randomIds.spanId(),
    parent_span_id: run.spanId,
    agent: run.agent,
    event: 'evaluation' as const,
    name: outcome.name,
    ...scoreFields(outcome),
    ...(outcome.costUsd === undefined || outcome.costUsd === 0
      ? {}
      : { cost_usd: outcome.costUsd }),
  }));
}

function scoreFields(outcome: ScorerOutcome): Partial<EvaluationEvent> {
  if (outcome.score === undefined)
    return { error: { type: 'scorer_error', message: outcome.error ?? 'no score' } };
  const { score, reason } = outcome.score;
  return {
    score,
    ...(score === 1 ? { label: 'pass' } : score === 0 ? { label: 'fail' } : {}),
    ...(reason === '' ? {} : { explanation: reason }),
  };
}
