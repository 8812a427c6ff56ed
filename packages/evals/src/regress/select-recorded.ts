import { join, resolve } from 'node:path';
import { TraceLibrary } from '@agent-trace/trace/library';
import { seededRandom } from '../compare/bootstrap.js';

/** A column's value as text. */
const text = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/** Which recorded runs a regress takes from the library. */
export interface RegressSelection {
  /**
   * SQL over the library's `runs` view (its columns: `run`, `session`, `entry_agent`,
   * `started_at`, `stop_reason`, `cost_usd`, `input`, `output`, `file`, …), e.g.
   * `entry_agent = 'desk' AND started_at > now() - INTERVAL 7 DAY`. @defaultValue every run
   */
  readonly where?: string;
  /** Only these runs, by id. @defaultValue every run `where` selects */
  readonly runs?: readonly string[];
  /** A sample of this many of the selected runs, drawn with `seed`. @defaultValue all of them */
  readonly sample?: number;
  /** The seed of the sample's draw. @defaultValue 1 */
  readonly seed?: number;
  /** At most this many runs (after the sample), the earliest first. @defaultValue no limit */
  readonly limit?: number;
  /** One shard of `count` (1-based `index`): run k (0-based, earliest first) is in shard k % count + 1. */
  readonly shard?: { readonly index: number; readonly count: number };
}

/** A recorded run: its id and the trace file it is in. */
export interface RecordedRun {
  readonly run: string;
  readonly file: string;
  readonly input: string;
  /**
   * Set for a turn of a conversation: which conversation, which turn, and how many of the agent's
   * turns the recorded conversation has.
   */
  readonly turn?: { readonly conversation: string; readonly turn: number; readonly turns?: number };
}

/**
 * The sealed runs of the library at `folder` that `selection` picks, the earliest first: the index
 * is brought up to the folder first. A run that never ended (no `run_end`) cannot be rerun and is
 * left out. What the library could not read (files it could not open, lines that are not events,
 * bytes that are not UTF-8) is told to `onProblems`, a line per file, when there is any.
 */
export async function selectRecorded(
  folder: string,
  selection: RegressSelection = {},
  onProblems?: (problems: readonly string[]) => void,
): Promise<RecordedRun[]> {
  const { shard } = selection;
  if (shard !== undefined && !(shard.index >= 1 && shard.index <= shard.count))
    throw new RangeError(`shard ${shard.index}/${shard.count}: the index is from 1 to the count.`);
  const library = new TraceLibrary(folder);
  try {
    await library.update();
    const problems = await library.problems();
    if (problems.length > 0) onProblems?.(problems);
    const ids = selection.runs ?? [];
    const { rows } = await library.query(
      // A simulated user's reply is a run of its model, not of the agent: never regressed.
      `SELECT run, file, input, conversation, turn, (SELECT max(o.turn) FROM runs o WHERE o.file = runs.file AND o.conversation = runs.conversation AND o.conversation_role IS DISTINCT FROM 'user') AS turns FROM runs WHERE stop_reason IS NOT NULL AND conversation_role IS DISTINCT FROM 'user' AND (${selection.where ?? 'true'})${
        ids.length === 0 ? '' : ` AND run IN (${ids.map(() => '?').join(', ')})`
      } ORDER BY started_at, file, "offset", run`,
      [...ids],
    );
    let found = rows.map(row => ({
      run: text(row.run),
      file: resolve(join(folder, text(row.file))),
      input: text(row.input ?? ''),
      ...(row.conversation == null || row.turn == null
        ? {}
        : {
            turn: {
              conversation: text(row.conversation),
              turn: Number(row.turn),
              ...(row.turns == null ? {} : { turns: Number(row.turns) }),
            },
          }),
    }));
    if (selection.sample !== undefined)
      found = sampled(found, selection.sample, selection.seed ?? 1);
    if (selection.limit !== undefined) found = found.slice(0, selection.limit);
    return shard === undefined
      ? found
      : found.filter((_, index) => index % shard.count === shard.index - 1);
  } finally {
    await library.settled();
  }
}

/** `count` of `runs`, drawn with `seed`, kept in their order. */
function sampled<Run>(runs: readonly Run[], count: number, seed: number): Run[] {
  const random = seededRandom(seed);
  const places = runs.map((_, index) => index);
  for (let index = places.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [places[index], places[other]] = [places[other] as number, places[index] as number];
  }
  return places
    .slice(0, count)
    .sort((a, b) => a - b)
    .map(index => runs[index] as Run);
}
