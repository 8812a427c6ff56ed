import { hostname } from 'node:os';
import { join } from 'node:path';
import type { DuckDBValue, Json } from '@duckdb/node-api';
import type { CaseResult } from '../run-eval.js';
import { rowsOf, text, type Connection } from './database.js';
import type { GitState } from './identity.js';
import {
  UnknownExperimentError,
  type ExperimentReader,
  type ExperimentStatus,
  type ExperimentSummary,
  type StoredExperiment,
} from './experiment-types.js';

const iso = (column: string) => `strftime(${column}, '%Y-%m-%dT%H:%M:%S.%gZ')`;

/**
 * The store's reads over one open connection (the index brought up to date before): kept out of
 * the store's declarations, so a project without DuckDB's types still type-checks the package.
 */
export class ConnectionReader implements ExperimentReader {
  constructor(
    private readonly connection: Connection,
    private readonly root: string,
  ) {}

  /** The experiments, newest first; of one eval, or of one branch, when asked. */
  list(
    filter: { eval?: string; branch?: string; limit?: number } = {},
  ): Promise<ExperimentSummary[]> {
    return summaries(this.connection, this.root, filter);
  }

  /** One experiment, by id or a prefix of one that no other id has. */
  async get(id: string): Promise<ExperimentSummary> {
    const matching = await summaries(this.connection, this.root, { idPrefix: id });
    const found =
      matching.find(each => each.id === id) ?? (matching.length === 1 ? matching[0] : undefined);
    if (found !== undefined) return found;
    throw new UnknownExperimentError(
      id,
      matching.length === 0 ? 'is not in the store' : `is the start of ${matching.length} ids`,
    );
  }

  /** An experiment with every run it kept, in data order, trial after trial. */
  async result(id: string): Promise<StoredExperiment> {
    const experiment = await this.get(id);
    const cases = await casesOf(this.connection, experiment);
    return { name: experiment.eval, cases, means: experiment.means, experiment };
  }

  /**
   * What `candidate` is compared with by default: the newest experiment of its eval on `branch`
   * that began before it and completed.
   */
  async baselineFor(
    candidate: ExperimentSummary,
    branch = 'main',
  ): Promise<ExperimentSummary | undefined> {
    const kept = await this.list({ eval: candidate.eval, branch });
    return kept.find(
      each =>
        each.id !== candidate.id &&
        each.status === 'completed' &&
        each.startedAt <= candidate.startedAt,
    );
  }
}

async function summaries(
  connection: Connection,
  root: string,
  {
    eval: evalName,
    branch,
    limit,
    idPrefix,
  }: { eval?: string; branch?: string; limit?: number; idPrefix?: string },
): Promise<ExperimentSummary[]> {
  const where = `WHERE ($1::VARCHAR IS NULL OR eval = $1) AND ($2::VARCHAR IS NULL OR branch = $2)
    AND ($3::VARCHAR IS NULL OR starts_with(id, $3))`;
  const chosen = `SELECT id FROM experiments ${where}`;
  const filter: DuckDBValue[] = [evalName ?? null, branch ?? null, idPrefix ?? null];
  const experiments = await rowsOf(
    connection,
    `SELECT *, ${iso('started_at')} AS started FROM experiments ${where}
     ORDER BY started_at DESC, id DESC ${limit === undefined ? '' : `LIMIT ${Math.floor(limit)}`}`,
    filter,
  );
  const { totals, means, models, writers } = await aggregates(connection, chosen, filter);
  return experiments.map(row => {
    const id = text(row.id);
    const total = totals.get(id)?.[0] ?? {};
    const scorers = JSON.parse(text(row.scorers)) as string[];
    const meanOf = new Map(
      (means.get(id) ?? []).map(each => [text(each.scorer), Number(each.mean)]),
    );
    const shards = (writers.get(id) ?? []).flatMap(each =>
      each.shard === null ? [] : [text(each.shard)],
    );
    return {
      id,
      eval: text(row.eval),
      startedAt: text(row.started),
      status: statusOf(writers.get(id) ?? []),
      git: gitOf(row),
      datasetHash: text(row.dataset_hash),
      configHash: text(row.config_hash),
      scorers,
      datasetCases: Number(row.dataset_cases),
      runs: Number(total.runs ?? 0),
      failed: Number(total.failed ?? 0),
      means: Object.fromEntries(scorers.map(scorer => [scorer, meanOf.get(scorer) ?? 0])),
      costUsd: Number(total.cost ?? 0),
      unpricedCalls: Number(total.unpriced ?? 0),
      tokensIn: Number(total.tokens_in ?? 0),
      tokensOut: Number(total.tokens_out ?? 0),
      models: (models.get(id) ?? []).map(each => text(each.model)),
      shards: [...new Set(shards)],
      folder: join(root, text(row.folder)),
    };
  });
}

type Row = Record<string, Json>;

/** The rows of each experiment, by its id. */
function byExperiment(rows: Row[]): Map<string, Row[]> {
  const map = new Map<string, Row[]>();
  for (const row of rows) {
    const id = text(row.experiment);
    const kept = map.get(id);
    if (kept === undefined) map.set(id, [row]);
    else kept.push(row);
  }
  return map;
}

/** What the chosen experiments' cases, scores and writers add up to. */
async function aggregates(connection: Connection, chosen: string, filter: DuckDBValue[]) {
  const query = async (sql: string) => byExperiment(await rowsOf(connection, sql, filter));
  return {
    totals: await query(
      `SELECT experiment, count(*) AS runs, count(error) AS failed, sum(cost_usd) AS cost,
         sum(unpriced_calls) AS unpriced, sum(tokens_in) AS tokens_in, sum(tokens_out) AS tokens_out
       FROM cases WHERE experiment IN (${chosen}) GROUP BY experiment`,
    ),
    means: await query(
      `SELECT experiment, scorer, avg(score) AS mean FROM scores
       WHERE experiment IN (${chosen}) GROUP BY experiment, scorer`,
    ),
    models: await query(
      `SELECT DISTINCT experiment, unnest(from_json(models, '["VARCHAR"]')) AS model FROM cases
       WHERE experiment IN (${chosen}) ORDER BY model`,
    ),
    writers: await query(
      `SELECT experiment, pid, host, shard, status FROM writers
       WHERE experiment IN (${chosen}) ORDER BY shard`,
    ),
  };
}

function gitOf(row: Row): GitState {
  return {
    ...(row.git_commit === null ? {} : { commit: text(row.git_commit) }),
    ...(row.branch === null ? {} : { branch: text(row.branch) }),
    ...(row.dirty === null ? {} : { dirty: row.dirty === true }),
  };
}

function statusOf(writers: readonly Row[]): ExperimentStatus {
  const open = writers.filter(writer => writer.status === null);
  if (open.length > 0)
    return open.some(writer => isAlive(Number(writer.pid), text(writer.host)))
      ? 'running'
      : 'unfinished';
  return writers.some(writer => writer.status === 'interrupted') ? 'interrupted' : 'completed';
}

/** Whether a writer's process is still there (on another host, it is taken to be). */
function isAlive(pid: number, host: string): boolean {
  if (host !== hostname()) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

async function casesOf(
  connection: Connection,
  experiment: ExperimentSummary,
): Promise<CaseResult[]> {
  const cases = await rowsOf(
    connection,
    'SELECT * FROM cases WHERE experiment = $1 ORDER BY position, trial',
    [experiment.id],
  );
  const scores = await rowsOf(connection, 'SELECT * FROM scores WHERE experiment = $1', [
    experiment.id,
  ]);
  const scoresOf = new Map<string, Record<string, { score: number; reason: string }>>();
  for (const row of scores) {
    const key = `${text(row.case_id)}\u0000${Number(row.trial)}`;
    const kept = scoresOf.get(key) ?? {};
    kept[text(row.scorer)] = { score: Number(row.score), reason: text(row.reason) };
    scoresOf.set(key, kept);
  }
  const parsed = (value: Json | undefined) =>
    value === null ? undefined : (JSON.parse(text(value)) as unknown);
  return cases.map(row => {
    const scored = scoresOf.get(`${text(row.case_id)}\u0000${Number(row.trial)}`) ?? {};
    return {
      id: text(row.case_id),
      index: Number(row.position),
      trial: Number(row.trial),
      input: parsed(row.input),
      ...(row.expected === null ? {} : { expected: parsed(row.expected) }),
      output: parsed(row.output),
      scores: Object.fromEntries(
        experiment.scorers.flatMap(name =>
          scored[name] === undefined ? [] : [[name, scored[name]]],
        ),
      ),
      ...(row.error === null ? {} : { error: text(row.error) }),
      durationMs: Number(row.duration_ms),
      usage: {
        tokensIn: Number(row.tokens_in),
        tokensOut: Number(row.tokens_out),
        costUsd: Number(row.cost_usd),
        unpricedCalls: Number(row.unpriced_calls),
        models: parsed(row.models) as string[],
      },
      ...(row.trace_file === null
        ? {}
        : { traceFile: join(experiment.folder, text(row.trace_file)) }),
    };
  });
}
