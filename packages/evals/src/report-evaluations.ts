import { type Evaluation, type TraceEvent, type TraceSink } from '@agent-trace/core';
import { defaultExportSinks } from '@agent-trace/core/record';
import type { Score } from './scorer.js';

/**
 * A case's scores as evaluations of its run: each judges the run's entry agent (its
 * `invoke_agent` span), with the last answer's provider id when the trace has one. None when
 * the run left no agent (a task that failed before running one).
 */
export function evaluationsOf(
  trace: readonly TraceEvent[],
  scores: Readonly<Record<string, Score>>,
  timeMs: number,
): Evaluation[] {
  const run = trace.find(event => event.event === 'run_start');
  const agent = trace.find(
    event => event.event === 'agent_start' && event.parent_span_id === run?.span_id,
  );
  if (run === undefined || agent === undefined) return [];
  let responseId: string | undefined;
  for (const event of trace)
    if (event.event === 'llm_end' && event.response_id !== undefined)
      responseId = event.response_id;
  return Object.entries(scores).map(([name, { score, reason }]) => ({
    name,
    score,
    ...(score === 1 ? { label: 'pass' as const } : score === 0 ? { label: 'fail' as const } : {}),
    ...(reason === '' ? {} : { explanation: reason }),
    traceId: run.trace_id,
    spanId: agent.span_id,
    ...(responseId === undefined ? {} : { responseId }),
    timeMs,
  }));
}

/** The sinks of an eval's own `trace` option that export a case's run and its scores. */
export function exportingSinks(trace: TraceSink | readonly TraceSink[] | undefined): TraceSink[] {
  if (trace === undefined) return [];
  const sinks = Array.isArray(trace) ? (trace as readonly TraceSink[]) : [trace as TraceSink];
  return sinks.filter(sink => sink.evaluated !== undefined);
}

/**
 * Tells the sinks a case's run wrote to (its own, and the default export the run added by core's
 * rule) its scores, as evaluation events on the span each judges; sinks that do not export take
 * none. Export never fails an eval.
 */
export function reportEvaluations(
  evaluations: readonly Evaluation[],
  own: readonly TraceSink[],
  autoExport: boolean | undefined,
): void {
  if (evaluations.length === 0) return;
  for (const sink of [...own, ...defaultExportSinks(own, autoExport)]) {
    try {
      sink.evaluated?.(evaluations);
    } catch {
      // A sink that cannot send says so in its own counts.
    }
  }
}
