import {
  text,
  TraceLibrary,
  type LibraryUpdate,
  type QueryResult,
  type RunFilter,
} from '@agent-trace/trace/library';
import type { Style } from '../render/style.js';
import { renderTable } from '../render/table.js';
import { exitCodes, type CommandResult } from './command-result.js';

/** How a query's rows are printed: an aligned table, JSON lines, or CSV. */
export type RowFormat = 'table' | 'json' | 'csv';

/** Where the library is and how the index is told of progress. */
export interface LibraryOptions {
  readonly dir: string;
  readonly style: Style;
  /** Shows how far an update got. */
  readonly progress?: (line: string | undefined) => void;
}

/** The views, for errors that should say what can be queried. */
const views = 'runs, agents, llm_calls, tool_calls, handoffs, events';

/** `agent-trace index <dir>`: brings the folder's index up to date and says what it read. */
export async function indexCommand(options: LibraryOptions): Promise<CommandResult> {
  const started = performance.now();
  const library = new TraceLibrary(options.dir);
  return withLibraryErrors(async () => {
    const update = await updated(library, options);
    const warnings = await library.problems();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    return {
      exitCode: warnings.length === 0 ? exitCodes.ok : exitCodes.failed,
      stdout: `${describeUpdate(update)} in ${seconds} s; the index is ${library.indexFile}\n`,
      stderr: warnings.map(line => `${options.style.yellow('warning')} ${line}\n`).join(''),
    };
  });
}

/** `agent-trace query "<SQL>"`: updates the index, then runs the SQL read-only. */
export async function queryCommand(
  sql: string,
  options: LibraryOptions & { readonly format: RowFormat },
): Promise<CommandResult> {
  const library = new TraceLibrary(options.dir);
  return withLibraryErrors(async () => {
    const warned = await updateAndWarn(library, options);
    let result: QueryResult;
    try {
      result = await library.query(sql);
    } catch (error) {
      return {
        exitCode: exitCodes.unreadable,
        stdout: '',
        stderr: `The query failed: ${(error as Error).message}\nThe views: ${views} (docs/guide/library.md lists their columns).\n`,
      };
    }
    return { exitCode: exitCodes.ok, stdout: formatRows(result, options.format), stderr: warned };
  });
}

/** `agent-trace runs`: updates the index, then lists the runs a filter selects. */
export async function runsCommand(
  filter: RunFilter,
  options: LibraryOptions & { readonly format: RowFormat },
): Promise<CommandResult> {
  const library = new TraceLibrary(options.dir);
  return withLibraryErrors(async () => {
    const warned = await updateAndWarn(library, options);
    const result = await library.runs(filter);
    if (options.format !== 'table')
      return {
        exitCode: exitCodes.ok,
        stdout: formatRows(result, options.format),
        stderr: warned,
      };
    const columns = [
      'run',
      'started_at',
      'entry_agent',
      'stop_reason',
      'duration_ms',
      'tokens',
      'cost_usd',
      'file',
    ];
    const rows = result.rows.map(row => ({
      ...row,
      tokens: Number(row.tok_prompt ?? 0) + Number(row.tok_completion ?? 0),
      file: `${text(row.file)}:${text(row.offset)}`,
    }));
    const table = formatRows({ columns, rows }, 'table');
    return {
      exitCode: exitCodes.ok,
      stdout: `${table}${result.rows.length} run${result.rows.length === 1 ? '' : 's'}\n`,
      stderr: warned,
    };
  });
}

async function updated(library: TraceLibrary, options: LibraryOptions): Promise<LibraryUpdate> {
  const update = await library.update({
    onProgress: ({ filesRead, filesToRead, bytes }) =>
      options.progress?.(
        `indexing: ${filesRead} of ${filesToRead} files, ${(bytes / 1e6).toFixed(0)} MB`,
      ),
  });
  options.progress?.(undefined);
  return update;
}

/** Brings the index up to date; one warning line saying how many files it could not read whole, or nothing. */
async function updateAndWarn(library: TraceLibrary, options: LibraryOptions): Promise<string> {
  await updated(library, options);
  const problems = await library.problems();
  if (problems.length === 0) return '';
  const files = problems.length === 1 ? '1 trace file' : `${problems.length} trace files`;
  return `${options.style.yellow('warning')} ${files} of ${library.folder} could not be read whole (${problems[0]}${problems.length > 1 ? ', …' : ''}); \`agent-trace index\` names them all.\n`;
}

function describeUpdate(update: LibraryUpdate): string {
  const parts = [
    `${update.files} trace file${update.files === 1 ? '' : 's'}`,
    `${update.read} read (${(update.bytes / 1e6).toFixed(1)} MB, ${update.events} events)`,
  ];
  if (update.rewritten > 0) parts.push(`${update.rewritten} rewritten, read again`);
  if (update.removed > 0) parts.push(`${update.removed} gone, forgotten`);
  return parts.join(', ');
}

/** A query's rows as a table (cells cut at 60 characters), JSON lines or CSV. */
export function formatRows(result: QueryResult, format: RowFormat): string {
  if (format === 'json')
    return result.rows.map(row => `${JSON.stringify(pick(row, result.columns))}\n`).join('');
  if (format === 'csv') {
    const quote = (text: string) =>
      /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    return [
      result.columns,
      ...result.rows.map(row => result.columns.map(column => text(row[column]))),
    ]
      .map(line => `${line.map(quote).join(',')}\n`)
      .join('');
  }
  const cut = (text: string) => {
    const flat = text.replace(/\s+/g, ' ');
    return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
  };
  const rows = result.rows.map(row => result.columns.map(column => cut(text(row[column]))));
  const numeric = new Set(
    result.columns.flatMap((column, index) =>
      result.rows.length > 0 &&
      result.rows.every(row => typeof row[column] === 'number' || row[column] === null)
        ? [index]
        : [],
    ),
  );
  return renderTable(result.columns, rows, numeric)
    .map(line => `${line}\n`)
    .join('');
}

function pick(row: Readonly<Record<string, unknown>>, columns: readonly string[]): object {
  return Object.fromEntries(columns.map(column => [column, row[column] ?? null]));
}

/** The library's errors as the CLI's: a missing DuckDB or folder, a busy index. */
async function withLibraryErrors(work: () => Promise<CommandResult>): Promise<CommandResult> {
  try {
    return await work();
  } catch (error) {
    // A missing DuckDB (MissingPeerError), folder or index, a busy index: each says what to do.
    if (error instanceof Error)
      return { exitCode: exitCodes.unreadable, stdout: '', stderr: `${error.message}\n` };
    throw error;
  }
}
