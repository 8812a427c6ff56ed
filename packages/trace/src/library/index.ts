/**
 * `@agent-trace/trace/library`: a folder of traces with an index and SQL beside it (DuckDB, an
 * optional peer), and the DuckDB opening the experiment store shares.
 */
export {
  LibraryBusyError,
  TraceLibrary,
  type IndexedFile,
  type QueryResult,
  type TraceLibraryOptions,
} from './trace-library.js';
export type { LibraryProgress, LibraryUpdate, UpdateOptions } from './update-library.js';
export {
  runFilterOf,
  runQuery,
  type RunFilter,
  type RunFilterFields,
  type RunSort,
} from './run-filter.js';
export {
  completeChunks,
  completeLinesFrom,
  findTraceFiles,
  headBytes,
  readRange,
} from './trace-files.js';
export type { FoundFile, UnreadableFile } from './trace-files.js';
export {
  duckDbIdle,
  inTransaction,
  rowsOf,
  text,
  withDuckDb,
  type DuckConnection,
  type DuckDbOpening,
  type DuckJson,
} from './duckdb.js';
export { durationMs } from './duration.js';
export { RunFilterError } from './run-filter-error.js';
