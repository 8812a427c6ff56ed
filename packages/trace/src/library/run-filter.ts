import type { DuckDBValue } from '@duckdb/node-api';
import { durationMs } from './duration.js';
import { RunFilterError } from './run-filter-error.js';

/** Which runs to list, and in what order: every field narrows; none lists the latest runs. */
export interface RunFilter {
  /** Runs where this agent ran. */
  readonly agent?: string;
  /** Runs that called this tool. */
  readonly tool?: string;
  /** Runs that called this model. */
  readonly model?: string;
  /** The stop reason; `failed` for any but `completed` and `interrupted` (a pause). */
  readonly stop?: string;
  /** Runs with an error anywhere (a model call, a tool call, the run): `true`, or its type. */
  readonly error?: true | string;
  readonly session?: string;
  /** Started at or after / before. */
  readonly since?: Date;
  readonly until?: Date;
  readonly minCostUsd?: number;
  readonly maxCostUsd?: number;
  readonly minDurationMs?: number;
  readonly maxDurationMs?: number;
  /** Text in the run's input or output, a model's answer, a tool's arguments or result, an error. */
  readonly text?: string;
  /** Most expensive, longest, most tokens, or latest first. @defaultValue 'time' */
  readonly sort?: RunSort;
  /** @defaultValue 50 */
  readonly limit?: number;
  readonly offset?: number;
}

/** How runs are ordered: each one's largest first. */
export type RunSort = 'time' | 'cost' | 'duration' | 'tokens';

/** The most runs one listing gives. */
const maxLimit = 100_000;

const orders: Readonly<Record<RunSort, string>> = {
  time: 'started_at DESC',
  cost: 'cost_usd DESC NULLS LAST',
  duration: 'duration_ms DESC NULLS LAST',
  tokens: '(tok_prompt + tok_completion) DESC NULLS LAST',
};

/**
 * The runs with an event that meets `condition`, for the conditions on what happened inside a run:
 * one scan of the events, joined once, instead of a correlated `EXISTS` per run.
 */
const inside = (condition: string) =>
  `(r.file, r.run) IN (SELECT f.path, e.run FROM trace_events e JOIN trace_files f USING (file_id)
    WHERE ${condition})`;

/** The SQL and its values that list the runs a filter selects, from the `runs` view. */
export function runQuery(filter: RunFilter): { sql: string; values: DuckDBValue[] } {
  const values: DuckDBValue[] = [];
  const value = (item: DuckDBValue) => {
    values.push(item);
    return `$${values.length}`;
  };
  const where: string[] = [];
  if (filter.agent !== undefined)
    where.push(inside(`e.event = 'agent_start' AND e.agent = ${value(filter.agent)}`));
  if (filter.tool !== undefined)
    where.push(inside(`e.event = 'tool_start' AND e.name = ${value(filter.tool)}`));
  if (filter.model !== undefined)
    where.push(inside(`e.event = 'llm_end' AND e.name = ${value(filter.model)}`));
  if (filter.stop === 'failed') where.push(`stop_reason NOT IN ('completed', 'interrupted')`);
  else if (filter.stop !== undefined) where.push(`stop_reason = ${value(filter.stop)}`);
  if (filter.error === true) where.push(inside('e.error_type IS NOT NULL'));
  else if (filter.error !== undefined) where.push(inside(`e.error_type = ${value(filter.error)}`));
  if (filter.session !== undefined) where.push(`session = ${value(filter.session)}`);
  if (filter.since !== undefined)
    where.push(`started_at >= ${value(timestamp(filter.since))}::TIMESTAMP`);
  if (filter.until !== undefined)
    where.push(`started_at < ${value(timestamp(filter.until))}::TIMESTAMP`);
  // Numbers as text cast to DOUBLE: a whole number would be bound as a BIGINT, which 1e300 is not.
  const double = (number: number) => `${value(String(number))}::DOUBLE`;
  if (filter.minCostUsd !== undefined) where.push(`cost_usd >= ${double(filter.minCostUsd)}`);
  if (filter.maxCostUsd !== undefined) where.push(`cost_usd <= ${double(filter.maxCostUsd)}`);
  if (filter.minDurationMs !== undefined)
    where.push(`duration_ms >= ${double(filter.minDurationMs)}`);
  if (filter.maxDurationMs !== undefined)
    where.push(`duration_ms <= ${double(filter.maxDurationMs)}`);
  if (filter.text !== undefined && filter.text !== '') {
    // Case-insensitive: both sides lowered the same way; `contains` takes the text as it is.
    const text = value(filter.text);
    const has = (column: string) => `contains(lower(${column}), lower(${text}))`;
    where.push(
      `(${has('r.input')} OR ${has('r.output')} OR ${inside(
        `${has('e.input')} OR ${has('e.output')} OR ${has('e.error_message')}`,
      )})`,
    );
  }
  const order = orders[filter.sort ?? 'time'];
  const whole = (number: number, most: number) =>
    Number.isFinite(number) ? Math.min(most, Math.max(0, Math.floor(number))) : most;
  const limit = whole(filter.limit ?? 50, maxLimit);
  const offset = whole(filter.offset ?? 0, Number.MAX_SAFE_INTEGER);
  return {
    sql: `SELECT * FROM runs r${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`}
      ORDER BY ${order}, run LIMIT ${limit} OFFSET ${offset}`,
    values,
  };
}

/** A date as DuckDB's TIMESTAMP text (UTC). */
function timestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

/**
 * A run filter as text, named as `agent-trace runs` names its flags (and the served viewer its
 * query parameters): `since` and `until` are durations back from now (`2h`, `7d`), costs in US
 * dollars, `minDuration` in milliseconds, `error` true or an error type.
 */
export interface RunFilterFields {
  readonly agent?: string;
  readonly tool?: string;
  readonly model?: string;
  readonly stop?: string;
  readonly error?: string | true;
  readonly session?: string;
  readonly since?: string;
  readonly until?: string;
  readonly minCost?: string;
  readonly maxCost?: string;
  readonly minDuration?: string;
  readonly text?: string;
  readonly sort?: string;
  readonly limit?: string;
}

const sorts: readonly string[] = ['time', 'cost', 'duration', 'tokens'];

/**
 * The filter `fields` ask for at `now`; throws a {@link RunFilterError} naming the field when one
 * is not valid.
 */
export function runFilterOf(fields: RunFilterFields, now: number): RunFilter {
  const number = (text: string | undefined, flag: string, most: number, whole = false) => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > most)
      throw new RunFilterError(`Invalid ${flag} '${text}': expected a number from 0 to ${most}.`);
    if (whole && !Number.isInteger(value))
      throw new RunFilterError(`Invalid ${flag} '${text}': expected a whole number.`);
    return value;
  };
  const ago = (text: string | undefined, flag: string) => {
    if (text === undefined) return undefined;
    const date = new Date(now - durationMs(text, flag));
    if (Number.isNaN(date.getTime()))
      throw new RunFilterError(`Invalid ${flag} '${text}': further back than a date can be.`);
    return date;
  };
  if (fields.sort !== undefined && !sorts.includes(fields.sort))
    throw new RunFilterError(`Invalid --sort '${fields.sort}': use one of ${sorts.join(', ')}.`);
  const entries: [keyof RunFilter, unknown][] = [
    ['agent', fields.agent],
    ['tool', fields.tool],
    ['model', fields.model],
    ['stop', fields.stop],
    ['error', fields.error],
    ['session', fields.session],
    ['since', ago(fields.since, '--since')],
    ['until', ago(fields.until, '--until')],
    ['minCostUsd', number(fields.minCost, '--min-cost', 1e9)],
    ['maxCostUsd', number(fields.maxCost, '--max-cost', 1e9)],
    ['minDurationMs', number(fields.minDuration, '--min-duration', 1e12)],
    ['text', fields.text],
    ['sort', fields.sort],
    ['limit', number(fields.limit, '--limit', maxLimit, true)],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
}
