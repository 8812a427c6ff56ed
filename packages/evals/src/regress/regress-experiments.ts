import type { TraceEvent } from '@agent-trace/core';
import { mean } from '../compare/bootstrap.js';
import type { ExperimentStoreOptions } from '../experiment/experiment-store.js';
import type { ExperimentJournal } from '../experiment/journal.js';
import { keepRunCase, runsJournal } from '../experiment/run-case.js';
import type { RegressCase } from './regress-case.js';
import type { RecordedRun } from './select-recorded.js';

/** The two experiments a regress keeps: ids of the recorded runs' and of today's. */
export interface RegressExperimentIds {
  readonly recorded: string;
  readonly today: string;
}

/**
 * Keeps a regress in the store as two experiments of the same cases (a case per recorded run):
 * the recorded runs, scored, and today's (the rerun, or its continuation), so `eval compare`
 * pairs them case by case. Each case is written as it finishes, with both traces.
 */
export class RegressExperiments {
  readonly ids: RegressExperimentIds;
  readonly #recorded: ExperimentJournal;
  readonly #today: ExperimentJournal;

  constructor(
    options: ExperimentStoreOptions & { readonly name: string },
    selected: readonly RecordedRun[],
    scorers: readonly string[],
    at: Date,
  ) {
    const side = (which: string) =>
      runsJournal({
        ...options,
        eval: options.name,
        at,
        runIds: selected.map(run => run.run),
        config: { regress: which },
        scorers,
      });
    const recorded = side('recorded');
    const today = side('today');
    this.#recorded = recorded.journal;
    this.#today = today.journal;
    this.ids = { recorded: recorded.id, today: today.id };
  }

  /** Writes a finished case into both experiments, each with its trace. */
  record(index: number, found: RegressCase, events: RegressEvents, at: Date): void {
    const id = found.run;
    keepRunCase(this.#recorded, { id, index, events: events.recorded, scores: found.before }, at);
    keepRunCase(
      this.#today,
      { id, index, events: events.today, scores: found.after ?? {}, output: outcomeOf(found) },
      at,
    );
  }

  /** Ends both experiments: every selected run done, or stopped short. */
  end(status: 'completed' | 'interrupted', at: Date): void {
    this.#recorded.end(status, at);
    this.#today.end(status, at);
  }
}

/** The two traces of a case. */
export interface RegressEvents {
  readonly recorded: readonly TraceEvent[];
  readonly today: readonly TraceEvent[];
}

/** A case's outcome in words, as today's experiment shows it for its output. */
export function outcomeOf(found: RegressCase): string {
  switch (found.status) {
    case 'same':
      return 'same';
    case 'continued':
      return `continued: ${meanText(found.before)} → ${meanText(found.after ?? {})} (${found.verdict}); diverged at ${found.divergence ?? ''}`;
    default:
      return `${found.status} at ${found.divergence ?? ''}`;
  }
}

function meanText(scores: Readonly<Record<string, { readonly score: number }>>): string {
  const values = Object.values(scores).map(score => score.score);
  return values.length === 0 ? '—' : mean(values).toFixed(2);
}
