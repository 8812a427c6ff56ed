import { join } from 'node:path';
import { withDuckDb, type DuckConnection } from '@agent-trace/trace/library';
import { StoreBusyError } from './store-busy-error.js';

export { inTransaction, rowsOf, text } from '@agent-trace/trace/library';

/** A connection to the store's database, open for one piece of work. */
export type Connection = DuckConnection;

const schema = `
CREATE TABLE IF NOT EXISTS experiments (
  id VARCHAR PRIMARY KEY, eval VARCHAR NOT NULL, started_at TIMESTAMP NOT NULL,
  git_commit VARCHAR, branch VARCHAR, dirty BOOLEAN,
  dataset_hash VARCHAR NOT NULL, config_hash VARCHAR NOT NULL,
  scorers JSON NOT NULL, dataset_cases INTEGER NOT NULL, folder VARCHAR NOT NULL);
CREATE TABLE IF NOT EXISTS writers (
  experiment VARCHAR NOT NULL, writer VARCHAR NOT NULL, pid INTEGER, host VARCHAR,
  shard VARCHAR, filter VARCHAR, trials INTEGER, started_at TIMESTAMP,
  ended_at TIMESTAMP, status VARCHAR, PRIMARY KEY (experiment, writer));
CREATE TABLE IF NOT EXISTS cases (
  experiment VARCHAR NOT NULL, case_id VARCHAR NOT NULL, trial INTEGER NOT NULL,
  position INTEGER NOT NULL, input JSON, expected JSON, output JSON, error VARCHAR,
  duration_ms DOUBLE, tokens_in BIGINT, tokens_out BIGINT, cost_usd DOUBLE,
  unpriced_calls INTEGER, models JSON, trace_file VARCHAR, ended_at TIMESTAMP,
  PRIMARY KEY (experiment, case_id, trial));
CREATE TABLE IF NOT EXISTS scores (
  experiment VARCHAR NOT NULL, case_id VARCHAR NOT NULL, trial INTEGER NOT NULL,
  scorer VARCHAR NOT NULL, score DOUBLE NOT NULL, reason VARCHAR,
  PRIMARY KEY (experiment, case_id, trial, scorer));
CREATE TABLE IF NOT EXISTS journals (file VARCHAR PRIMARY KEY, bytes BIGINT NOT NULL);
`;

/**
 * Opens the store's database (`<root>/experiments.duckdb`) for one piece of work and closes it
 * after, so that other processes can write between two pieces. While another process holds it,
 * this waits up to `lockTimeoutMs`, then fails with a {@link StoreBusyError}.
 */
export function withDatabase<T>(
  root: string,
  lockTimeoutMs: number,
  work: (connection: Connection) => Promise<T>,
): Promise<T> {
  return withDuckDb(
    join(root, 'experiments.duckdb'),
    {
      needer: 'The experiment store of @agent-trace/evals',
      schema,
      lockTimeoutMs,
      busy: (file, waited, cause) => new StoreBusyError(file, waited, cause),
    },
    work,
  );
}
