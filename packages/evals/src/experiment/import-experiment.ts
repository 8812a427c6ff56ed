import type { Evaluation, TraceEvent } from '@agent-trace/core';
import { keepRunCase, runsJournal } from './run-case.js';
import type { Score } from '../scorer.js';
import type { ExperimentStoreOptions } from './experiment-store.js';

/** What {@link importExperiment} made: the experiment's id, its cases and scores. */
export interface ImportedExperiment {
  readonly id: string;
  readonly cases: number;
  readonly scores: number;
  /** Evaluations whose span is in none of the runs, left out. */
  readonly unmatched: number;
}

/**
 * Keeps runs read back from a backend, with the evaluation events that judged them, as an
 * experiment in the store: a case per run that an evaluation judges (its trace kept with it),
 * scored by each evaluation's name. So `agent-trace eval view` and `eval compare` show scores an
 * eval sent to OpenTelemetry (`gen_ai.evaluation.result`) as they show the eval's own.
 */
export function importExperiment(
  events: readonly TraceEvent[],
  evaluations: readonly Evaluation[],
  options: ExperimentStoreOptions & { readonly eval: string; readonly now?: Date },
): ImportedExperiment {
  const { runs, unmatched } = judgedRuns(events, evaluations);
  const at = options.now ?? new Date();
  const { id, journal } = runsJournal({
    ...options,
    at,
    runIds: runs.map(run => run.id),
    config: { imported: true },
    scorers: [...new Set(evaluations.map(evaluation => evaluation.name))],
  });
  runs.forEach((run, index) => keepRunCase(journal, { ...run, index }, at));
  journal.end('completed', at);
  return {
    id,
    cases: runs.length,
    scores: runs.reduce((sum, run) => sum + Object.keys(run.scores).length, 0),
    unmatched,
  };
}

interface JudgedRun {
  readonly id: string;
  readonly events: readonly TraceEvent[];
  readonly scores: Record<string, Score>;
}

/** The runs some evaluation judges (by one of their spans), each with its scores by name. */
function judgedRuns(
  events: readonly TraceEvent[],
  evaluations: readonly Evaluation[],
): { runs: JudgedRun[]; unmatched: number } {
  const byRun = new Map<string, TraceEvent[]>();
  const runOfSpan = new Map<string, string>();
  for (const event of events) {
    const list = byRun.get(event.run) ?? [];
    list.push(event);
    byRun.set(event.run, list);
    runOfSpan.set(`${event.trace_id}/${event.span_id}`, event.run);
  }
  const judged = new Map<string, JudgedRun>();
  let unmatched = 0;
  for (const evaluation of evaluations) {
    // A person's feedback has no scorer's score: it is not a case's.
    if (evaluation.score === undefined) continue;
    const run = runOfSpan.get(`${evaluation.traceId}/${evaluation.spanId}`);
    if (run === undefined) {
      unmatched++;
      continue;
    }
    const entry = judged.get(run) ?? { id: run, events: byRun.get(run) ?? [], scores: {} };
    entry.scores[evaluation.name] = {
      score: evaluation.score,
      reason: evaluation.explanation ?? evaluation.label ?? '',
    };
    judged.set(run, entry);
  }
  return { runs: [...judged.values()], unmatched };
}
