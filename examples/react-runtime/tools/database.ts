import initSqlJs, { type Database, type SqlValue } from 'sql.js';
import { z } from 'zod';
import { tool, toolError } from '@agent-trace/core';

/** The most rows a query returns; more are cut, and the answer says so. */
export const maxRows = 100;

/** A query the database tool refuses, with why and what it accepts. */
export class QueryRefusedError extends Error {
  constructor(reason: string) {
    super(
      `${reason} Only one SELECT statement is accepted (WITH … SELECT too), without comments; pass values as params, e.g. {"sql": "SELECT * FROM orders WHERE status = ?", "params": ["paid"]}.`,
    );
    this.name = 'QueryRefusedError';
  }
}

const writing =
  /\b(insert|update|delete|drop|alter|create|replace|attach|detach|pragma|vacuum|reindex|analyze|begin|commit|rollback|savepoint|release|returning)\b/i;

/** Checks that the text is one read-only query; returns it without a trailing semicolon. */
export function readOnlyQuery(sql: string): string {
  const text = sql.trim().replace(/;\s*$/, '');
  if (text === '') throw new QueryRefusedError('The query is empty.');
  if (text.includes(';')) throw new QueryRefusedError('The query holds more than one statement.');
  if (/--|\/\*/.test(text)) throw new QueryRefusedError('The query holds a comment.');
  if (!/^(select|with)\b/i.test(text))
    throw new QueryRefusedError(`The query is not a SELECT ('${text.split(/\s/)[0] ?? ''}').`);
  const keyword = writing.exec(text);
  if (keyword !== null) throw new QueryRefusedError(`The query uses '${keyword[0]}'.`);
  return text;
}

const seed = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), total REAL NOT NULL, status TEXT NOT NULL);
INSERT INTO customers VALUES (1, 'Aiko', 'JP'), (2, 'Bruno', 'BR'), (3, 'Chloé', 'FR'), (4, 'Dmitri', 'DE');
INSERT INTO orders VALUES
  (1, 1, 120.5, 'paid'), (2, 1, 35.0, 'refunded'), (3, 2, 89.9, 'paid'), (4, 3, 240.0, 'open'),
  (5, 3, 15.25, 'paid'), (6, 4, 64.0, 'paid'), (7, 2, 12.0, 'open');
`;

/**
 * The orders database: SQLite compiled to WebAssembly (sql.js), in memory, seeded, then switched
 * to `query_only` so the engine itself refuses writes whatever the text checks miss.
 */
export async function openOrdersDatabase(): Promise<Database> {
  const SQL = await initSqlJs();
  const database = new SQL.Database();
  database.run(seed);
  database.run('PRAGMA query_only = ON');
  return database;
}

/** Runs one read-only query with its parameters bound; at most {@link maxRows} rows. */
export function runQuery(
  database: Database,
  sql: string,
  params: readonly SqlValue[] = [],
): { rows: Record<string, SqlValue>[]; truncated: boolean } {
  const statement = database.prepare(readOnlyQuery(sql));
  try {
    statement.bind([...params]);
    const rows: Record<string, SqlValue>[] = [];
    while (statement.step()) {
      if (rows.length === maxRows) return { rows, truncated: true };
      rows.push(statement.getAsObject());
    }
    return { rows, truncated: false };
  } finally {
    statement.free();
  }
}

/** The database tool: one read-only query on the orders database, its values bound as parameters. */
export function databaseTool(database: Promise<Database> = openOrdersDatabase()) {
  return tool({
    name: 'database',
    description: `Runs one read-only SQL query (SELECT) on the orders database: customers(id, name, country), orders(id, customer_id, total, status). Pass values as params (? placeholders). At most ${maxRows} rows.`,
    input: z.object({
      sql: z.string().min(1).max(2000),
      params: z
        .array(z.union([z.string(), z.number(), z.null()]))
        .max(20)
        .default([]),
    }),
    execute: async ({ sql, params }) => {
      const opened = await database;
      try {
        return runQuery(opened, sql, params);
      } catch (error) {
        // A query refused or wrong (a bad column, bad SQL) is the model's to fix; a database that
        // does not answer (above) is a failure, retried.
        if (error instanceof QueryRefusedError)
          throw toolError(`${error.message} Write one read-only SELECT, values as ? params.`);
        throw toolError(
          `The database could not run the query: ${error instanceof Error ? error.message : String(error)}. Check the table and column names.`,
        );
      }
    },
  });
}
