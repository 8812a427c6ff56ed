import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hashString } from '@agent-trace/core/util';
import {
  duckDbIdle,
  rowsOf,
  text,
  withDuckDb,
  type DuckConnection,
  type DuckJson,
} from './duckdb.js';
import type { DuckDBValue } from '@duckdb/node-api';
import { runQuery, type RunFilter } from './run-filter.js';
import { librarySchema, libraryViews } from './schema.js';
import { findTraceFiles, type UnreadableFile } from './trace-files.js';
import { updateLibrary, type LibraryUpdate, type UpdateOptions } from './update-library.js';

/** Options of {@link TraceLibrary}. */
export interface TraceLibraryOptions {
  /** The index's database file. @defaultValue `<folder>/.agent-trace/index.duckdb` */
  readonly indexFile?: string;
  /** How long to wait while another process updates the index. @defaultValue 60000 */
  readonly lockTimeoutMs?: number;
}

/** The answer to a query: its column names and rows (JSON values). */
export interface QueryResult {
  readonly columns: readonly string[];
  readonly rows: readonly Record<string, DuckJson>[];
}

/** A trace file as the index knows it. */
export interface IndexedFile {
  readonly path: string;
  /** Bytes read so far: the file's complete lines. */
  readonly indexedBytes: number;
  /** Lines that are not trace events, and the byte offset of the first. */
  readonly skippedLines: number;
  readonly firstSkippedOffset: number | undefined;
  /** Why the first skipped line is not an event (not JSON, another schema version, …). */
  readonly skippedReason: string | undefined;
  /** Where the first line with bytes that are not UTF-8 starts (read as U+FFFD). */
  readonly notUtf8Offset: number | undefined;
  /**
   * What is wrong with the file, in words, when something is: lines that are not events (how
   * many, where the first is, why), bytes that are not UTF-8. Undefined for a file read whole.
   */
  readonly problem: string | undefined;
}

/** The index is held by another process for longer than the wait allowed. */
export class LibraryBusyError extends Error {
  constructor(file: string, waitedMs: number, cause: unknown) {
    super(
      `The trace index ${file} stayed locked by another process for ${Math.round(waitedMs)} ms: another agent-trace is updating it (a first index of a big folder takes a while). Try again when it is done.`,
      { cause },
    );
    this.name = 'LibraryBusyError';
  }
}

/**
 * A folder of JSONL traces with an index beside it: DuckDB (`@duckdb/node-api`, an optional
 * peer), updated incrementally by {@link TraceLibrary.update}, queried with SQL over the views
 * `runs`, `agents`, `llm_calls`, `tool_calls`, `handoffs` and `events` (each row with its run id,
 * file and byte offset). The database is opened for each piece of work and closed after, so
 * several processes can share it one at a time.
 */
export class TraceLibrary {
  readonly folder: string;
  readonly indexFile: string;
  readonly #lockTimeoutMs: number;
  /** The folder's files (path, size, last write) when this library last brought the index up to them. */
  #indexedFiles: string | undefined;
  /** What that update could not read. */
  #unreadable: readonly UnreadableFile[] = [];

  constructor(folder: string, options: TraceLibraryOptions = {}) {
    this.folder = resolve(folder);
    this.indexFile = options.indexFile ?? join(this.folder, '.agent-trace', 'index.duckdb');
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 60_000;
  }

  /** Reads what is new in the folder into the index; see {@link updateLibrary}. */
  async update(options: UpdateOptions = {}): Promise<LibraryUpdate> {
    if (!existsSync(this.folder))
      throw new Error(
        `No folder ${this.folder}: the library indexes the traces in a folder that exists.`,
      );
    const unreadable: UnreadableFile[] = [];
    const found = findTraceFiles(this.folder, file => unreadable.push(file));
    const files = found
      .map(file => `${file.path}\u0000${file.size}\u0000${file.modified}`)
      .join('\n');
    // Nothing written since this library's last update: the index is not opened (a served
    // library asks twice a second).
    if (files === this.#indexedFiles && existsSync(this.indexFile))
      return {
        files: found.length,
        read: 0,
        rewritten: 0,
        removed: 0,
        bytes: 0,
        events: 0,
        skippedLines: 0,
        unreadable: this.#unreadable,
      };
    const update = await this.#open(false, async connection => {
      await ensureViews(connection);
      return updateLibrary(connection, this.folder, options, found, unreadable);
    });
    this.#indexedFiles = files;
    this.#unreadable = update.unreadable;
    return update;
  }

  /**
   * Runs SQL on the index, read-only: the views above (and its tables). It does not update the
   * index first; call {@link TraceLibrary.update}.
   */
  async query(sql: string, values: DuckDBValue[] = []): Promise<QueryResult> {
    return this.#open(true, async connection => {
      const reader = await connection.runAndReadAll(sql, values);
      const columns = reader.columnNames();
      // DuckDB's JSON gives 64-bit integers as text; counts, tokens and offsets read as numbers.
      const wide = reader
        .columnTypes()
        .flatMap((type, index) => (/INT/.test(type.toString()) ? [columns[index]!] : []));
      const rows = reader.getRowObjectsJson();
      for (const row of rows)
        for (const column of wide) {
          const value = row[column];
          if (typeof value === 'string' && Number.isSafeInteger(Number(value)))
            row[column] = Number(value);
        }
      return { columns, rows };
    });
  }

  /** The runs a filter selects (the `runs` view's columns), read-only. */
  async runs(filter: RunFilter = {}): Promise<QueryResult> {
    const { sql, values } = runQuery(filter);
    return this.query(sql, values);
  }

  /** The files the index has read, and how far. */
  async files(): Promise<IndexedFile[]> {
    const { rows } = await this.query(
      'SELECT path, indexed_bytes, skipped_lines, first_skipped, skipped_why, not_utf8_at FROM trace_files ORDER BY path',
    );
    const number = (value: DuckJson | undefined) =>
      value === null || value === undefined ? undefined : Number(value);
    return rows.map(row => {
      const skippedLines = Number(row.skipped_lines);
      const firstSkippedOffset = number(row.first_skipped);
      const skippedReason = row.skipped_why == null ? undefined : text(row.skipped_why);
      const notUtf8Offset = number(row.not_utf8_at);
      const problems = [
        ...(skippedLines === 0
          ? []
          : [
              `${skippedLines === 1 ? '1 line is not a trace event and was' : `${skippedLines} lines are not trace events and were`} skipped (the first at byte ${firstSkippedOffset ?? 0}: ${skippedReason ?? 'not an event'})`,
            ]),
        ...(notUtf8Offset === undefined
          ? []
          : [
              `bytes that are not UTF-8 (the first on the line at byte ${notUtf8Offset}), read as U+FFFD`,
            ]),
      ];
      return {
        path: text(row.path),
        indexedBytes: Number(row.indexed_bytes),
        skippedLines,
        firstSkippedOffset,
        skippedReason,
        notUtf8Offset,
        problem: problems.length === 0 ? undefined : problems.join('; '),
      };
    });
  }

  /**
   * What the index could not read, a line per file (its path first): files the last update could
   * not open, lines that are not events, bytes that are not UTF-8. Empty when every file was read
   * whole.
   */
  async problems(): Promise<string[]> {
    const files = existsSync(this.indexFile) ? await this.files() : [];
    return [
      ...this.#unreadable.map(file => `${file.path}: cannot be read, left out: ${file.reason}`),
      ...files.flatMap(file =>
        file.problem === undefined ? [] : [`${file.path}: ${file.problem}`],
      ),
    ];
  }

  /**
   * Resolves once every update and query this process started on the library has ended and
   * closed its DuckDB handles: await it before the thread or process that owns the library ends.
   */
  settled(): Promise<void> {
    return duckDbIdle(this.indexFile);
  }

  #open<T>(readOnly: boolean, work: (connection: DuckConnection) => Promise<T>): Promise<T> {
    if (readOnly && !existsSync(this.indexFile))
      throw new Error(
        `No trace index at ${this.indexFile}: run \`agent-trace index ${this.folder}\` first.`,
      );
    return withDuckDb(
      this.indexFile,
      {
        needer: 'The trace library of @agent-trace/trace (agent-trace index, query, runs, serve)',
        ...(readOnly ? { readOnly: true } : { schema: librarySchema }),
        lockTimeoutMs: this.#lockTimeoutMs,
        busy: (file, waited, cause) => new LibraryBusyError(file, waited, cause),
      },
      work,
    );
  }
}

/**
 * Makes the views when the index has none, or older ones: replacing them on every opening would
 * change the catalog each time (and DuckDB's first checkpoint after a large index then takes a
 * second).
 */
async function ensureViews(connection: DuckConnection): Promise<void> {
  const version = hashString(libraryViews);
  const rows = await rowsOf(connection, "SELECT value FROM library_meta WHERE key = 'views'");
  if (rows[0]?.value === version) return;
  await connection.run(libraryViews);
  await connection.run(
    "INSERT INTO library_meta VALUES ('views', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    [version],
  );
}
