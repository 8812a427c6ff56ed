import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { completeLinesFrom } from '@agent-trace/trace/library';
import { inTransaction, rowsOf, text, type Connection } from './database.js';
import type { CaseLine, ExperimentIdentity, JournalLine, WriterStart } from './journal.js';

/**
 * Brings the index up to date with the experiment folders under `<root>/experiments`: every
 * experiment's identity, and every complete journal line not read yet (each journal's read length
 * is kept, so a line is read once; a torn last line waits for its end). One transaction: a crash
 * during it leaves the index as it was, and the next sync reads the same lines again.
 */
export async function ingestJournals(connection: Connection, root: string): Promise<void> {
  const experimentsDir = join(root, 'experiments');
  if (!existsSync(experimentsDir)) return;
  const known = new Map(
    (await rowsOf(connection, 'SELECT file, bytes FROM journals')).map(row => [
      text(row.file),
      Number(row.bytes),
    ]),
  );
  const experiments = new Set(
    (await rowsOf(connection, 'SELECT id FROM experiments')).map(row => text(row.id)),
  );
  const staged: Staged = { cases: [], scores: [] };
  await inTransaction(connection, async () => {
    for (const id of readdirSync(experimentsDir)) {
      const folder = join(experimentsDir, id);
      const identityFile = join(folder, 'experiment.json');
      if (!existsSync(identityFile)) continue;
      if (!experiments.has(id))
        await insertExperiment(connection, root, folder, readIdentity(identityFile));
      for (const name of readdirSync(folder)) {
        if (!(name.startsWith('cases.') && name.endsWith('.jsonl'))) continue;
        const file = join(folder, name);
        const key = relative(root, file);
        const from = known.get(key) ?? 0;
        const { lines, bytes } = completeLinesFrom(file, from);
        if (bytes === from) continue;
        await ingestLines(connection, id, lines, staged);
        await connection.run(
          'INSERT INTO journals VALUES ($1, $2) ON CONFLICT (file) DO UPDATE SET bytes = excluded.bytes',
          [key, bytes],
        );
      }
    }
    await insertStaged(connection, staged);
  });
}

function readIdentity(file: string): ExperimentIdentity {
  return JSON.parse(readFileSync(file, 'utf8')) as ExperimentIdentity;
}

async function insertExperiment(
  connection: Connection,
  root: string,
  folder: string,
  identity: ExperimentIdentity,
): Promise<void> {
  const { git } = identity;
  await connection.run(
    `INSERT INTO experiments VALUES ($1, $2, $3::TIMESTAMP, $4, $5, $6, $7, $8, $9::JSON, $10, $11)
     ON CONFLICT DO NOTHING`,
    [
      identity.id,
      identity.eval,
      identity.startedAt,
      git.commit ?? null,
      git.branch ?? null,
      git.dirty ?? null,
      identity.datasetHash,
      identity.configHash,
      JSON.stringify(identity.scorers),
      identity.cases,
      relative(root, folder),
    ],
  );
}

/** Rows read from journals, appended to staging tables and inserted in bulk. */
interface Staged {
  readonly cases: (string | number | null)[][];
  readonly scores: (string | number | null)[][];
}

async function ingestLines(
  connection: Connection,
  experiment: string,
  lines: string[],
  staged: Staged,
) {
  let writer = '';
  for (const text of lines) {
    const line = JSON.parse(text) as JournalLine;
    if (line.type === 'start') {
      writer = line.writer;
      await insertWriter(connection, experiment, line);
    } else if (line.type === 'case') stageCase(staged, experiment, line);
    else
      await connection.run(
        `UPDATE writers SET ended_at = $1::TIMESTAMP, status = $2
         WHERE experiment = $3 AND (writer = $4 OR $4 = '') AND ended_at IS NULL`,
        [line.at, line.status, experiment, writer],
      );
  }
}

async function insertWriter(connection: Connection, experiment: string, line: WriterStart) {
  await connection.run(
    `INSERT INTO writers VALUES ($1, $2, $3, $4, $5, $6, $7, $8::TIMESTAMP, NULL, NULL)
     ON CONFLICT DO NOTHING`,
    [
      experiment,
      line.writer,
      line.pid,
      line.host,
      line.shard ?? null,
      line.filter ?? null,
      line.trials,
      line.at,
    ],
  );
}

function stageCase(staged: Staged, experiment: string, line: CaseLine) {
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
  staged.cases.push([
    experiment,
    line.id,
    line.trial,
    line.index,
    json(line.input),
    json(line.expected),
    json(line.output),
    line.error ?? null,
    line.durationMs,
    line.usage.tokensIn,
    line.usage.tokensOut,
    line.usage.costUsd,
    line.usage.unpricedCalls,
    JSON.stringify(line.usage.models),
    line.traceFile ?? null,
    line.at,
  ]);
  for (const [scorer, { score, reason }] of Object.entries(line.scores))
    staged.scores.push([experiment, line.id, line.trial, scorer, score, reason]);
}

/** Staging tables: the target tables' columns as text and numbers, cast on insert. */
const staging = `
CREATE OR REPLACE TEMP TABLE stage_cases (experiment VARCHAR, case_id VARCHAR, trial DOUBLE,
  position DOUBLE, input VARCHAR, expected VARCHAR, output VARCHAR, error VARCHAR,
  duration_ms DOUBLE, tokens_in DOUBLE, tokens_out DOUBLE, cost_usd DOUBLE,
  unpriced_calls DOUBLE, models VARCHAR, trace_file VARCHAR, ended_at VARCHAR);
CREATE OR REPLACE TEMP TABLE stage_scores (experiment VARCHAR, case_id VARCHAR, trial DOUBLE,
  scorer VARCHAR, score DOUBLE, reason VARCHAR);
`;

/**
 * Inserts the staged rows in two statements: DuckDB's appender fills the staging tables (one
 * INSERT a row costs a statement each, milliseconds apiece), then each is inserted at once, rows
 * already there (read again after a crash during a sync) left as they are.
 */
async function insertStaged(connection: Connection, staged: Staged): Promise<void> {
  if (staged.cases.length === 0 && staged.scores.length === 0) return;
  await connection.run(staging);
  for (const [table, rows] of [
    ['stage_cases', staged.cases],
    ['stage_scores', staged.scores],
  ] as const) {
    const appender = await connection.createAppender(table);
    for (const row of rows) {
      for (const value of row)
        if (value === null) appender.appendNull();
        else if (typeof value === 'number') appender.appendDouble(value);
        else appender.appendVarchar(value);
      appender.endRow();
    }
    appender.closeSync();
  }
  await connection.run(`
    INSERT INTO cases SELECT experiment, case_id, trial::INTEGER, position::INTEGER, input::JSON,
      expected::JSON, output::JSON, error, duration_ms, tokens_in::BIGINT, tokens_out::BIGINT,
      cost_usd, unpriced_calls::INTEGER, models::JSON, trace_file, ended_at::TIMESTAMP
    FROM stage_cases ON CONFLICT DO NOTHING;
    INSERT INTO scores SELECT experiment, case_id, trial::INTEGER, scorer, score, reason
    FROM stage_scores ON CONFLICT DO NOTHING;
    DROP TABLE stage_cases;
    DROP TABLE stage_scores;`);
}
