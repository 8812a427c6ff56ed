import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TraceEvent } from '@agent-trace/core';
import { runTotals } from '@agent-trace/trace/model';
import { fileNameOf, type CaseResult } from '../run-eval.js';
import type { Score } from '../scorer.js';
import { ExperimentStore, type ExperimentStoreOptions } from './experiment-store.js';
import { hashOf } from './identity.js';
import { ExperimentJournal } from './journal.js';
import { newExperimentId } from './run-experiment.js';

/** A run kept as a case of an experiment (an imported run, a regressed one). */
export interface KeptRun {
  readonly id: string;
  readonly index: number;
  readonly events: readonly TraceEvent[];
  readonly scores: Readonly<Record<string, Score>>;
  /** What the case shows as its output. @defaultValue the run's */
  readonly output?: unknown;
}

/**
 * The case of a kept run: its input, output, time and usage as the trace has them, with the
 * scores it was given.
 */
function caseOfRun(run: KeptRun, traceFile: string): CaseResult {
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
    traceFile,
  };
}

/**
 * A new experiment of runs that already ran (imported, regressed): its identity says no git state
 * (the runs were not made by this checkout), the runs' ids are its dataset, `config` what it is.
 */
export function runsJournal(
  options: ExperimentStoreOptions & {
    readonly eval: string;
    readonly at: Date;
    readonly runIds: readonly string[];
    readonly config: unknown;
    readonly scorers: readonly string[];
  },
): { readonly id: string; readonly journal: ExperimentJournal } {
  const id = newExperimentId(options.at);
  const startedAt = options.at.toISOString();
  const journal = new ExperimentJournal(
    new ExperimentStore(options).experimentsDir,
    {
      id,
      eval: options.eval,
      startedAt,
      git: {},
      datasetHash: hashOf(options.runIds),
      configHash: hashOf(options.config),
      scorers: options.scorers,
      cases: options.runIds.length,
    },
    { at: startedAt, trials: 1 },
  );
  return { id, journal };
}

/** Keeps a run as a case of `journal`: its trace written beside the journal, the case recorded. */
export function keepRunCase(journal: ExperimentJournal, run: KeptRun, at: Date): void {
  const traceFile = join(journal.traceDir, `${fileNameOf(run.id)}.t1.jsonl`);
  writeFileSync(traceFile, run.events.map(event => `${JSON.stringify(event)}\n`).join(''));
  journal.record(caseOfRun(run, traceFile), at);
}
