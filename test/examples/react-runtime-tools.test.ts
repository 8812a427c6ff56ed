import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from 'sql.js';
import {
  ArithmeticError,
  evaluateArithmetic,
} from '../../examples/react-runtime/tools/arithmetic.js';
import {
  maxRows,
  openOrdersDatabase,
  QueryRefusedError,
  readOnlyQuery,
  runQuery,
} from '../../examples/react-runtime/tools/database.js';
import { searchCorpus } from '../../examples/react-runtime/tools/search.js';

describe('the calculator’s arithmetic', () => {
  it.each([
    ['2 + 3 * 4', 14],
    ['(2 + 3) * 4', 20],
    ['7 // 2', 3],
    ['-7 // 2', -4],
    ['-7 % 3', 2],
    ['2 ** 3 ** 2', 512],
    ['-2 ** 2', -4],
    ['1.5e2 / 3', 50],
    ['.5 + -(-1)', 1.5],
  ])('%s = %d, as Python would say', (expression, value) => {
    expect(evaluateArithmetic(expression)).toBe(value);
  });

  it.each([
    ['__import__("os")', "names and function calls are not allowed ('__import__' at 0)"],
    ['(1).constructor', "unexpected '.' at 3"],
    ['2 +', 'unexpected the end at 3; expected a number or ('],
    ['(1 + 2', "unexpected the end at 6; expected ')'"],
    ['1 / 0', 'division by zero at 2'],
    ['10 ** 400', 'the result is not a finite number'],
    ['1; 2', "unexpected ';' at 1"],
  ])('refuses %s: %s', (expression, message) => {
    expect(() => evaluateArithmetic(expression)).toThrow(ArithmeticError);
    expect(() => evaluateArithmetic(expression)).toThrow(message);
  });

  it('agrees with the numbers it is built from, for random sums and products', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 12 }),
        numbers => {
          expect(evaluateArithmetic(numbers.map(n => `(${n})`).join(' + '))).toBe(
            numbers.reduce((a, b) => a + b, 0),
          );
        },
      ),
      { numRuns: 200, seed: 2 },
    );
  });
});

describe('the search tool', () => {
  it('ranks the corpus for a query, the same way every time, citing sources', () => {
    const hits = searchCorpus('opentelemetry spans for tool executions', 3);
    expect(hits[0]).toMatchObject({ source: 'otel-genai' });
    expect(hits.length).toBeLessThanOrEqual(3);
    expect(searchCorpus('opentelemetry spans for tool executions', 3)).toEqual(hits);
    expect(searchCorpus('zzz unknown words', 3)).toEqual([]);
  });
});

describe('the database tool', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openOrdersDatabase();
  });

  it('answers a SELECT with its parameters bound', () => {
    const { rows, truncated } = runQuery(
      database,
      'SELECT name, SUM(total) AS spent FROM orders JOIN customers ON customers.id = customer_id WHERE status = ? GROUP BY name ORDER BY spent DESC;',
      ['paid'],
    );
    expect(truncated).toBe(false);
    expect(rows).toEqual([
      { name: 'Aiko', spent: 120.5 },
      { name: 'Bruno', spent: 89.9 },
      { name: 'Dmitri', spent: 64 },
      { name: 'Chloé', spent: 15.25 },
    ]);
    // A bound value is a value, never SQL.
    expect(
      runQuery(database, 'SELECT COUNT(*) AS n FROM orders WHERE status = ?', ["paid' OR 1=1 --"])
        .rows,
    ).toEqual([{ n: 0 }]);
  });

  it.each([
    ['DELETE FROM orders', "not a SELECT ('DELETE')"],
    ['SELECT 1; DROP TABLE orders', 'more than one statement'],
    ['SELECT * FROM orders -- all', 'holds a comment'],
    ['WITH gone AS (DELETE FROM orders RETURNING id) SELECT * FROM gone', "uses 'DELETE'"],
    ['', 'The query is empty.'],
  ])('refuses %j: %s', (sql, reason) => {
    expect(() => readOnlyQuery(sql)).toThrow(QueryRefusedError);
    expect(() => readOnlyQuery(sql)).toThrow(reason);
  });

  it('is read-only in the engine too, and cuts long answers', () => {
    expect(() => database.run("UPDATE orders SET status = 'paid'")).toThrow(
      /readonly|read-only|query_only/i,
    );
    const many = runQuery(
      database,
      'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) SELECT i FROM n',
    );
    expect(many.rows).toHaveLength(maxRows);
    expect(many.truncated).toBe(true);
  });
});
