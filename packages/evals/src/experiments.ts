/**
 * Experiments: evals run into a store under `.agent-trace/` (each case's journal line and trace on
 * disk as it finishes, indexed in DuckDB for queries over many experiments). DuckDB
 * (`@duckdb/node-api`) is an optional peer, loaded when the store is first used.
 */
export { runExperiment, newExperimentId } from './experiment/run-experiment.js';
export type { ExperimentRun, RunExperimentOptions } from './experiment/run-experiment.js';
export { ExperimentStore, UnknownExperimentError } from './experiment/experiment-store.js';
export type {
  ExperimentReader,
  ExperimentStatus,
  ExperimentStoreOptions,
  ExperimentSummary,
  StoredExperiment,
} from './experiment/experiment-store.js';
export { StoreBusyError } from './experiment/store-busy-error.js';
export { ExperimentMismatchError } from './experiment/journal.js';
export type { ExperimentIdentity } from './experiment/journal.js';
export { configHash, datasetHash, gitState, hashOf } from './experiment/identity.js';
export type { GitState } from './experiment/identity.js';
export { importExperiment } from './experiment/import-experiment.js';
export type { ImportedExperiment } from './experiment/import-experiment.js';
