import {
  appendFileSync,
  linkSync,
  mkdirSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import type { CaseResult } from '../run-eval.js';
import type { GitState } from './identity.js';

/** What identifies an experiment: which eval, on what code and data, and when it began. */
export interface ExperimentIdentity {
  readonly id: string;
  readonly eval: string;
  /** ISO time. */
  readonly startedAt: string;
  readonly git: GitState;
  /** Of the whole dataset (see `datasetHash`). */
  readonly datasetHash: string;
  /** Of the task's configuration (see `configHash`). */
  readonly configHash: string;
  /** The scorers' names, in the definition's order. */
  readonly scorers: readonly string[];
  /** Cases in the whole dataset. */
  readonly cases: number;
}

/** Where a writer of an experiment begins: which process, which shard, which options. */
export interface WriterStart {
  readonly type: 'start';
  readonly writer: string;
  readonly pid: number;
  readonly host: string;
  readonly at: string;
  /** `i/n`, when the writer runs one shard. */
  readonly shard?: string;
  readonly filter?: string;
  readonly trials: number;
}

/** A finished case, as a journal line holds it (its trace file relative to the experiment). */
export interface CaseLine extends Omit<CaseResult, 'traceFile'> {
  readonly type: 'case';
  readonly at: string;
  readonly traceFile?: string;
}

/** How a writer ended: every case it had run (`completed`), or stopped short (`interrupted`). */
export interface WriterEnd {
  readonly type: 'end';
  readonly at: string;
  readonly status: 'completed' | 'interrupted';
}

/** One line of an experiment's journal. */
export type JournalLine = WriterStart | CaseLine | WriterEnd;

/** An experiment with the same id but another eval or dataset is already in the store. */
export class ExperimentMismatchError extends Error {
  constructor(id: string, problem: string) {
    super(
      `Experiment '${id}' ${problem}. Shards of one experiment run the same eval on the same data; give this run another experiment id.`,
    );
    this.name = 'ExperimentMismatchError';
  }
}

/**
 * Writes one process's part of an experiment: its folder holds `experiment.json` (the identity,
 * written by the first writer), one journal per writer (`cases.<writer>.jsonl`: a start line, a
 * line per finished case, appended at once so a crash loses no finished case, and an end line) and
 * the case traces under `traces/`. The store's index is built from these files.
 */
export class ExperimentJournal {
  readonly folder: string;
  readonly traceDir: string;
  private readonly file: string;

  constructor(
    experimentsDir: string,
    identity: ExperimentIdentity,
    start: Omit<WriterStart, 'type' | 'writer' | 'pid' | 'host'>,
  ) {
    this.folder = join(experimentsDir, identity.id);
    this.traceDir = join(this.folder, 'traces');
    mkdirSync(this.traceDir, { recursive: true });
    claimIdentity(this.folder, identity);
    const writer = `${start.shard?.replace('/', 'of') ?? 'all'}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    this.file = join(this.folder, `cases.${writer}.jsonl`);
    this.append({ type: 'start', writer, pid: process.pid, host: hostname(), ...start });
  }

  /** Keeps a finished case: its line is on disk when this returns. */
  record(result: CaseResult, at: Date): void {
    const { traceFile, ...rest } = result;
    this.append({
      type: 'case',
      at: at.toISOString(),
      ...rest,
      ...(traceFile === undefined ? {} : { traceFile: relative(this.folder, traceFile) }),
    });
  }

  end(status: WriterEnd['status'], at: Date): void {
    this.append({ type: 'end', at: at.toISOString(), status });
  }

  private append(line: JournalLine): void {
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
}

/** Writes the identity unless a writer already did; then it must be of the same eval and data. */
function claimIdentity(folder: string, identity: ExperimentIdentity): void {
  const file = join(folder, 'experiment.json');
  // Written whole beside it, then linked in: a link fails when the file exists, and a reader
  // never sees it half written.
  const draft = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(draft, `${JSON.stringify(identity, null, 2)}\n`);
  try {
    linkSync(draft, file);
    return;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  const kept = JSON.parse(readFileSync(file, 'utf8')) as ExperimentIdentity;
  if (kept.eval !== identity.eval)
    throw new ExperimentMismatchError(identity.id, `is of eval '${kept.eval}'`);
  if (kept.datasetHash !== identity.datasetHash)
    throw new ExperimentMismatchError(identity.id, 'ran another dataset');
}
