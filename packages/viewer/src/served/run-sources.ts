import { resolve } from 'node:path';
import {
  runFilterOf,
  TraceLibrary,
  text,
  type DuckJson,
  type LibraryProgress,
  type RunFilterFields,
} from '@agent-trace/trace/library';
import type { RunSummary } from '../viewer-data.js';
import type { FileOutline } from './file-outline.js';
import { fileInside, servedFolder } from './http.js';

/** The outline of a file the server keeps (read up to date), by its path and page name. */
export type Outlines = (absolute: string, name: string) => Promise<FileOutline>;

/** Where a served page's runs come from: a folder's index, or the files given. */
export interface RunSource {
  readonly title: string;
  readonly kind: 'library' | 'files';
  /** A library's folder (what its runs are added to datasets from). */
  readonly folder?: string;
  /** The runs the query parameters ask for (the files' every run, for files). */
  runs(query: URLSearchParams, outlines: Outlines): Promise<RunSummary[]>;
  /** Agent, tool and model names and stop reasons, to offer in the filters. */
  facets(): Promise<Readonly<Record<string, readonly string[]>>>;
  /** The path of a file the page may read, or undefined for any other name. */
  file(name: string): Promise<string | undefined>;
  /** Looks for new and grown files; true when the runs may have changed. */
  poll(): Promise<boolean>;
  /** Resolves once the work it started (index updates, queries) has ended and released its handles. */
  settled(): Promise<void>;
}

/** The runs of the files as given, read by the server's outlines; filters work in the page. */
export function filesSource(files: readonly string[]): RunSource {
  const paths = new Map(files.map(file => [file, resolve(file)]));
  return {
    title: files.join(', '),
    kind: 'files',
    async runs(_query, outlines) {
      const runs: RunSummary[] = [];
      for (const [name, absolute] of paths)
        for (const run of (await outlines(absolute, name)).runs) runs.push(run.summary());
      return runs;
    },
    facets: () => Promise.resolve({}),
    file: name => Promise.resolve(paths.get(name)),
    poll: () => Promise.resolve(false),
    settled: () => Promise.resolve(),
  };
}

/** The filter fields a page asks for, from its query parameters (named as `agent-trace runs` flags). */
function fieldsOf(query: URLSearchParams): RunFilterFields {
  const names = [
    'agent',
    'tool',
    'model',
    'stop',
    'session',
    'since',
    'until',
    'minCost',
    'maxCost',
    'minDuration',
    'text',
    'sort',
    'limit',
  ] as const;
  const fields: Record<string, string | true> = {};
  for (const name of names) {
    const value = query.get(name);
    if (value !== null && value !== '') fields[name] = value;
  }
  const error = query.get('error');
  if (error !== null) fields.error = error === '' ? true : error;
  return { limit: '500', ...fields };
}

/** A DuckDB timestamp (UTC, `2026-11-25 10:00:00.123`) in epoch milliseconds. */
function epoch(value: DuckJson | undefined): number {
  return typeof value === 'string' ? Date.parse(`${value.replace(' ', 'T')}Z`) : Number.NaN;
}

const numberOf = (value: DuckJson | undefined): number =>
  typeof value === 'number' ? value : value == null ? 0 : Number(value);

/** A row of the library's `runs` view as the page lists it. */
function summaryOf(row: Readonly<Record<string, DuckJson>>): RunSummary {
  const startedAt = epoch(row.started_at);
  const endedAt = epoch(row.ended_at);
  return {
    id: text(row.run),
    session: text(row.session),
    file: text(row.file),
    entryAgent: text(row.entry_agent),
    startedAt,
    stopReason: row.stop_reason == null ? undefined : text(row.stop_reason),
    agents: [text(row.entry_agent)],
    totals: {
      tokensIn: numberOf(row.tok_prompt),
      tokensOut: numberOf(row.tok_completion),
      costUsd: numberOf(row.cost_usd),
      unpricedCalls: numberOf(row.unpriced_calls),
      llmCalls: numberOf(row.llm_calls),
      toolCalls: numberOf(row.tool_calls),
      errors: numberOf(row.tool_errors) + (row.error_type == null ? 0 : 1),
      durationMs: row.duration_ms == null ? endedAt - startedAt : numberOf(row.duration_ms),
    },
    ...turnOf(row),
  };
}

/** A turn of a conversation, from the `runs` view's `conversation`, `turn`, `input`, `output`. */
function turnOf(row: Readonly<Record<string, DuckJson>>): Pick<RunSummary, 'turn'> {
  if (row.conversation == null || row.turn == null) return {};
  return {
    turn: {
      conversation: text(row.conversation),
      turn: numberOf(row.turn),
      ...(row.conversation_role === 'user' ? { user: true as const } : {}),
      said: row.input == null ? '' : text(row.input),
      ...(row.output == null ? {} : { answered: text(row.output) }),
    },
  };
}

/** Options of {@link librarySource}. */
export interface LibrarySourceOptions {
  /** Told after each batch of the first index update. */
  readonly onProgress?: (progress: LibraryProgress) => void;
  /**
   * Told after the first index update what it could not read, a line per file (files that
   * cannot be opened, lines that are not events); not called when every file was read whole.
   */
  readonly onProblems?: (problems: readonly string[]) => void;
}

/**
 * The runs of a folder's trace library: indexed (incrementally) before the first page, then again
 * whenever {@link RunSource.poll} is called; the page's filters are the `runs` command's.
 */
export async function librarySource(
  folder: string,
  options: LibrarySourceOptions = {},
): Promise<RunSource> {
  const root = await servedFolder(folder);
  const library = new TraceLibrary(root);
  await library.update(options.onProgress === undefined ? {} : { onProgress: options.onProgress });
  const problems = await library.problems();
  if (problems.length > 0) options.onProblems?.(problems);
  return {
    title: folder,
    kind: 'library',
    folder: root,
    async runs(query) {
      const { rows } = await library.runs(runFilterOf(fieldsOf(query), Date.now()));
      return rows.map(summaryOf);
    },
    async facets() {
      const { rows } = await library.query(facetsSql);
      const facets: Record<string, string[]> = {};
      for (const row of rows) (facets[text(row.facet)] ??= []).push(text(row.name));
      return facets;
    },
    file: name => fileInside(root, name),
    async poll() {
      const update = await library.update();
      return update.read + update.removed > 0;
    },
    settled: () => library.settled(),
  };
}

const facetsSql = `
SELECT * FROM (
  SELECT DISTINCT 'agent' AS facet, agent AS name FROM agents
  UNION SELECT DISTINCT 'tool', tool FROM tool_calls
  UNION SELECT DISTINCT 'model', model FROM llm_calls
  UNION SELECT DISTINCT 'stop', stop_reason FROM runs WHERE stop_reason IS NOT NULL
  -- Each conversation: its id, how many turns, how it ended, joined by a unit separator.
  UNION SELECT 'conversation', concat_ws(chr(31), session, CAST(turns AS VARCHAR), coalesce(outcome, 'running'))
    FROM sessions WHERE turns IS NOT NULL
) WHERE name IS NOT NULL
-- At most 1,000 choices a facet: a library of many conversations leaves room for the others.
QUALIFY row_number() OVER (PARTITION BY facet ORDER BY name) <= 1000
ORDER BY facet, name`;
