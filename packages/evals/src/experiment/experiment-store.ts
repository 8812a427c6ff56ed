import { join } from 'node:path';
import { rowsOf, withDatabase, type Connection } from './database.js';
import { ConnectionReader } from './experiment-queries.js';
import type { ExperimentReader, ExperimentSummary, StoredExperiment } from './experiment-types.js';
import { ingestJournals } from './ingest.js';

export {
  UnknownExperimentError,
  type ExperimentReader,
  type ExperimentStatus,
  type ExperimentSummary,
  type StoredExperiment,
} from './experiment-types.js';

/** Where the store is and how long a write may wait for another process's. */
export interface ExperimentStoreOptions {
  /** @defaultValue `.agent-trace` */
  readonly root?: string;
  /** @defaultValue 60000 */
  readonly lockTimeoutMs?: number;
}

/**
 * The experiments kept under a folder (`.agent-trace` by default): each experiment's files
 * (journals and traces, the record of what ran) and a DuckDB database indexing them for queries
 * over many experiments. Every read first brings the index up to date with the files, so cases
 * written by another process, or by one that crashed, are there.
 */
export class ExperimentStore {
  readonly root: string;
  private readonly lockTimeoutMs: number;

  constructor({ root = '.agent-trace', lockTimeoutMs = 60_000 }: ExperimentStoreOptions = {}) {
    this.root = root;
    this.lockTimeoutMs = lockTimeoutMs;
  }

  /** Where experiment folders go. */
  get experimentsDir(): string {
    return join(this.root, 'experiments');
  }

  /** Brings the index up to date with the experiment folders. */
  sync(): Promise<void> {
    return this.use(connection => ingestJournals(connection, this.root));
  }

  /**
   * Asks the store several questions over one open index, brought up to date once (a
   * comparison's sides and its baseline, say).
   */
  reading<T>(work: (reader: ExperimentReader) => Promise<T>): Promise<T> {
    return this.synced(connection => work(new ConnectionReader(connection, this.root)));
  }

  /** The experiments, newest first; of one eval, or of one branch, when asked. */
  list(
    filter: { eval?: string; branch?: string; limit?: number } = {},
  ): Promise<ExperimentSummary[]> {
    return this.reading(reader => reader.list(filter));
  }

  /** One experiment, by id or a prefix of one that no other id has. */
  get(id: string): Promise<ExperimentSummary> {
    return this.reading(reader => reader.get(id));
  }

  /** An experiment with every run it kept, in data order, trial after trial. */
  result(id: string): Promise<StoredExperiment> {
    return this.reading(reader => reader.result(id));
  }

  /**
   * What `candidate` is compared with by default: the newest experiment of its eval on `branch`
   * that began before it and completed.
   */
  baselineFor(
    candidate: ExperimentSummary,
    branch = 'main',
  ): Promise<ExperimentSummary | undefined> {
    return this.reading(reader => reader.baselineFor(candidate, branch));
  }

  /**
   * Runs SQL over the index (tables `experiments`, `writers`, `cases`, `scores`), e.g. a scorer's
   * mean over the last twenty experiments; rows as JSON values.
   */
  query(
    sql: string,
    values: readonly (string | number | boolean | null)[] = [],
  ): Promise<Record<string, unknown>[]> {
    return this.synced(connection => rowsOf(connection, sql, [...values]));
  }

  /** `work` over one open index, brought up to date with the files first. */
  private synced<T>(work: (connection: Connection) => Promise<T>): Promise<T> {
    return this.use(async connection => {
      await ingestJournals(connection, this.root);
      return work(connection);
    });
  }

  private use<T>(work: (connection: Connection) => Promise<T>): Promise<T> {
    return withDatabase(this.root, this.lockTimeoutMs, work);
  }
}
