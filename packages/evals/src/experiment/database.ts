import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '@agent-trace/core';
import { backoffDelayMs, importPeer, sleepOn } from '@agent-trace/core/internal';
import type * as Duck from '@duckdb/node-api';
import { StoreBusyError } from './store-busy-error.js';

/** A connection to the store's database, open for one piece of work. */
export type Connection = Duck.DuckDBConnection;

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

/** How long to wait for another process's hold: from 10 ms, doubling to 250, with jitter. */
const lockBackoff = { baseDelayMs: 10, maxDelayMs: 250 };

let duck: Promise<typeof Duck> | undefined;

/** DuckDB, loaded once: an optional peer, named when missing. */
function loadDuck(): Promise<typeof Duck> {
  duck ??= importPeer(() => import('@duckdb/node-api'), {
    peer: '@duckdb/node-api',
    needer: 'The experiment store of @agent-trace/evals',
    range: '~1.5.6-r.1',
  });
  return duck;
}

const isLockConflict = (error: unknown) =>
  /Could not set lock|Conflicting lock/i.test(error instanceof Error ? error.message : '');

/**
 * Opens the store's database (`<root>/experiments.duckdb`) for one piece of work and closes it
 * after, so that other processes can write between two pieces. DuckDB lets one process hold a
 * database file at a time: while another does, this waits (backing off, with jitter) up to
 * `lockTimeoutMs`, then fails with a {@link StoreBusyError}.
 */
export function withDatabase<T>(
  root: string,
  lockTimeoutMs: number,
  work: (connection: Connection) => Promise<T>,
): Promise<T> {
  // One piece of work at a time per file in this process, too.
  const file = join(root, 'experiments.duckdb');
  const done = (queues.get(file) ?? Promise.resolve()).then(() =>
    openAndWork(root, file, lockTimeoutMs, work),
  );
  const settled = done.then(
    () => undefined,
    () => undefined,
  );
  queues.set(file, settled);
  void settled.then(() => queues.get(file) === settled && queues.delete(file));
  return done;
}

const queues = new Map<string, Promise<void>>();

async function openAndWork<T>(
  root: string,
  file: string,
  lockTimeoutMs: number,
  work: (connection: Connection) => Promise<T>,
): Promise<T> {
  const { DuckDBInstance } = await loadDuck();
  mkdirSync(root, { recursive: true });
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    let instance: Duck.DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(file);
    } catch (error) {
      const waited = performance.now() - started;
      if (!isLockConflict(error)) throw error;
      if (waited >= lockTimeoutMs) throw new StoreBusyError(file, waited, error);
      await sleepOn(
        systemClock,
        backoffDelayMs(attempt, lockBackoff, Math.random, undefined),
        undefined,
      );
      continue;
    }
    const connection = await instance.connect();
    try {
      await connection.run(schema);
      return await work(connection);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }
}

/** Runs `work` in one transaction: all of it is written, or none. */
export async function inTransaction<T>(connection: Connection, work: () => Promise<T>): Promise<T> {
  await connection.run('BEGIN TRANSACTION');
  try {
    const result = await work();
    await connection.run('COMMIT');
    return result;
  } catch (error) {
    await connection.run('ROLLBACK');
    throw error;
  }
}

/** The rows of a query as plain JSON values. */
export async function rowsOf(
  connection: Connection,
  sql: string,
  values: Duck.DuckDBValue[] = [],
): Promise<Record<string, Duck.Json>[]> {
  const reader = await connection.runAndReadAll(sql, values);
  return reader.getRowObjectsJson();
}

/** A column's value as text: a string as it is, null as '', anything else as JSON. */
export function text(value: Duck.Json | undefined): string {
  if (typeof value === 'string') return value;
  return value === null || value === undefined ? '' : JSON.stringify(value);
}
