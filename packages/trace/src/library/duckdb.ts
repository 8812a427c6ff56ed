import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { systemClock } from '@agent-trace/core';
import { backoffDelayMs, importPeer, sleepOn } from '@agent-trace/core/util';
import type * as Duck from '@duckdb/node-api';

/** A connection to a DuckDB database, open for one piece of work. */
export type DuckConnection = Duck.DuckDBConnection;

/** A JSON value of a result row. */
export type DuckJson = Duck.Json;

/** How long to wait for another process's hold: from 10 ms, doubling to 250, with jitter. */
const lockBackoff = { baseDelayMs: 10, maxDelayMs: 250 };

let duck: Promise<typeof Duck> | undefined;

/** DuckDB, loaded once: an optional peer, named when missing with what needs it. */
export function loadDuck(needer: string): Promise<typeof Duck> {
  duck ??= importPeer(() => import('@duckdb/node-api'), {
    peer: '@duckdb/node-api',
    needer,
    range: '~1.5.6-r.1',
    runtime: true,
  });
  return duck;
}

const isLockConflict = (error: unknown) =>
  /Could not set lock|Conflicting lock/i.test(error instanceof Error ? error.message : '');

/** How {@link withDuckDb} opens a database file. */
export interface DuckDbOpening {
  /** Who needs DuckDB, for the error when it is not installed. */
  readonly needer: string;
  /** Statements run on every opening (`CREATE TABLE IF NOT EXISTS …`); none when read-only. */
  readonly schema?: string;
  /** Open it read-only: other read-only openings may share it, a writer may not. */
  readonly readOnly?: boolean;
  /** How long to wait for another process's hold before failing. */
  readonly lockTimeoutMs: number;
  /** The error to fail with once the wait is over. */
  readonly busy: (file: string, waitedMs: number, cause: unknown) => Error;
}

const queues = new Map<string, Promise<void>>();

/**
 * Resolves once every piece of DuckDB work this process started (on `file`, or on any) has ended
 * and its handles are closed: what an owner awaits before it lets its thread or process go. A Node worker thread
 * ended while a DuckDB query runs kills the whole process (the binding's callback throws into a
 * torn-down thread), so work is never left running.
 */
export async function duckDbIdle(file?: string): Promise<void> {
  const pending = () =>
    file === undefined
      ? [...queues.values()]
      : [queues.get(file)].filter(queue => queue !== undefined);
  for (let waiting = pending(); waiting.length > 0; waiting = pending()) await Promise.all(waiting);
}

/**
 * Opens a DuckDB database file for one piece of work and closes it after, so that other
 * processes can use it between two pieces. DuckDB lets one process write a database file at a
 * time: while another holds it, this waits (backing off, with jitter) up to `lockTimeoutMs`, then
 * fails with `busy`'s error. Pieces of work on one file in this process run one at a time.
 */
export function withDuckDb<T>(
  file: string,
  opening: DuckDbOpening,
  work: (connection: DuckConnection) => Promise<T>,
): Promise<T> {
  const done = (queues.get(file) ?? Promise.resolve()).then(() => openAndWork(file, opening, work));
  const settled = done.then(
    () => undefined,
    () => undefined,
  );
  queues.set(file, settled);
  void settled.then(() => queues.get(file) === settled && queues.delete(file));
  return done;
}

async function openAndWork<T>(
  file: string,
  opening: DuckDbOpening,
  work: (connection: DuckConnection) => Promise<T>,
): Promise<T> {
  const { DuckDBInstance } = await loadDuck(opening.needer);
  if (opening.readOnly !== true) mkdirSync(dirname(file), { recursive: true });
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    let instance: Duck.DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(
        file,
        opening.readOnly === true ? { access_mode: 'READ_ONLY' } : {},
      );
    } catch (error) {
      const waited = performance.now() - started;
      if (!isLockConflict(error)) throw error;
      if (waited >= opening.lockTimeoutMs) throw opening.busy(file, waited, error);
      await sleepOn(
        systemClock,
        backoffDelayMs(attempt, lockBackoff, Math.random, undefined),
        undefined,
      );
      continue;
    }
    const connection = await instance.connect();
    try {
      if (opening.schema !== undefined) await connection.run(opening.schema);
      return await work(connection);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }
}

/** Runs `work` in one transaction: all of it is written, or none. */
export async function inTransaction<T>(
  connection: DuckConnection,
  work: () => Promise<T>,
): Promise<T> {
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
  connection: DuckConnection,
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
