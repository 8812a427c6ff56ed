import { join, resolve } from 'node:path';
import { TraceLibrary } from '@agent-trace/trace/library';
import { DatasetError } from './dataset-error.js';

/** Which recorded runs become cases. */
export interface RunSelection {
  /** The library's folder (its traces, indexed on the way). */
  readonly from: string;
  /** SQL over the library's views, as a condition on the `runs` view. @defaultValue every run */
  readonly where?: string;
  /** Only these runs, by id. Each must be in the library. */
  readonly runs?: readonly string[];
}

/** A run picked for a dataset, with what its case's lineage holds. */
export interface PickedRun {
  readonly run: string;
  /** Its trace file: its path under the library's folder, and the absolute one. */
  readonly file: string;
  readonly path: string;
  readonly offset: number;
  readonly time: string;
  readonly session: string;
  readonly agent: string;
  readonly stopReason?: string;
  readonly conversation?: string;
  readonly turn?: number;
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/** A DuckDB timestamp (UTC, `2026-11-25 10:00:00.123`) as ISO-8601. */
const iso = (value: unknown): string => new Date(`${text(value).replace(' ', 'T')}Z`).toISOString();

/**
 * The sealed runs of the library that the selection picks, the earliest first, with what the
 * library could not read (a line per file). A simulated user's runs (a model playing the person)
 * are never cases. Throws a `DatasetError` for SQL the library refuses and for a `--run` it does
 * not hold.
 */
export async function runsForDataset(
  selection: RunSelection,
): Promise<{ runs: PickedRun[]; problems: readonly string[] }> {
  const library = new TraceLibrary(selection.from);
  try {
    await library.update();
    const problems = await library.problems();
    const ids = selection.runs ?? [];
    let rows;
    try {
      ({ rows } = await library.query(
        `SELECT run, file, "offset", started_at, session, entry_agent, stop_reason, conversation, turn FROM runs WHERE stop_reason IS NOT NULL AND conversation_role IS DISTINCT FROM 'user' AND (${selection.where ?? 'true'})${
          ids.length === 0 ? '' : ` AND run IN (${ids.map(() => '?').join(', ')})`
        } ORDER BY started_at, file, "offset", run`,
        [...ids],
      ));
    } catch (error) {
      throw new DatasetError(
        `--where ${JSON.stringify(selection.where ?? '')} is not SQL the library takes: ${(error as Error).message.split('\n')[0]}. It is a condition on the runs view (its columns: run, session, entry_agent, started_at, stop_reason, cost_usd, input, output, file, …); other views (feedback, tool_calls, …) through a subquery, e.g. "run IN (SELECT run FROM feedback WHERE score < 0)".`,
      );
    }
    const runs = rows.map(row => picked(selection.from, row));
    const missing = ids.filter(id => !runs.some(each => each.run === id));
    if (missing.length > 0)
      throw new DatasetError(
        `No ended run ${missing.join(', ')} in the library at ${selection.from}${selection.where === undefined ? '' : ' that --where selects'}: 'agent-trace runs ${selection.from}' lists its runs.`,
      );
    return { runs, problems };
  } finally {
    await library.settled();
  }
}

function picked(folder: string, row: Readonly<Record<string, unknown>>): PickedRun {
  return {
    run: text(row.run),
    file: text(row.file),
    path: resolve(join(folder, text(row.file))),
    offset: Number(row.offset),
    time: iso(row.started_at),
    session: text(row.session),
    agent: text(row.entry_agent),
    ...(row.stop_reason == null ? {} : { stopReason: text(row.stop_reason) }),
    ...(row.conversation == null || row.turn == null
      ? {}
      : { conversation: text(row.conversation), turn: Number(row.turn) }),
  };
}
