import type { TraceEvent } from '@agent-trace/core';
import { runTotals } from '@agent-trace/trace/model';
import type { CaseResult } from '../run-eval.js';
import type { Score } from '../scorer.js';

/**
 * A case of an experiment made from a run's events (an imported run, a regressed one): its input,
 * output, time and usage as the trace has them, with the scores it was given.
 */
export function caseOfRun(run: {
  readonly id: string;
  readonly index: number;
  readonly events: readonly TraceEvent[];
  readonly scores: Readonly<Record<string, Score>>;
  readonly traceFile: string;
  /** What the case shows as its output. @defaultValue the run's */
  readonly output?: unknown;
}): CaseResult {
  const start = run.events.find(event => event.event === 'run_start');
  const end = run.events.findLast(event => event.event === 'run_end');
  const totals = runTotals(run.events);
  const models = new Set<string>();
  for (const event of run.events) if (event.event === 'llm_start') models.add(event.model);
  return {
    id: run.id,
    index: run.index,
    trial: 1,
    input: start?.event === 'run_start' ? start.input : null,
    output: 'output' in run ? run.output : end?.event === 'run_end' ? (end.output ?? null) : null,
    scores: run.scores,
    durationMs: end?.event === 'run_end' ? end.duration_ms : 0,
    usage: {
      tokensIn: totals.tokensIn,
      tokensOut: totals.tokensOut,
      costUsd: totals.costUsd,
      unpricedCalls: totals.unpricedCalls,
      models: [...models],
    },
    traceFile: run.traceFile,
  };
}
