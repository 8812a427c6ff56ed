import { isUtf8 } from 'node:buffer';
import { nestsDeeperThan } from '../jsonl/nesting-depth.js';
import { byteOrderMark } from '../jsonl/read-trace-lines.js';
import type { DuckDBAppender } from '@duckdb/node-api';
import { inTransaction, rowsOf, text, type DuckConnection } from './duckdb.js';
import {
  insertParsedEvents,
  parseStagedLines,
  recordStagedFiles,
  skippedParsedLines,
} from './schema.js';
import {
  completeChunks,
  findTraceFiles,
  headBytes,
  readRange,
  unreadableReason,
  type FoundFile,
  type UnreadableFile,
} from './trace-files.js';

/** What one update of the index did. */
export interface LibraryUpdate {
  /** Trace files in the folder. */
  readonly files: number;
  /** Files read this time: new, grown, or rewritten (read again from the start). */
  readonly read: number;
  readonly rewritten: number;
  /** Files gone from the folder, forgotten by the index. */
  readonly removed: number;
  /** Bytes read: only what was not read before. */
  readonly bytes: number;
  /** Events added. */
  readonly events: number;
  /** Lines read that are not trace events (not JSON, no run or event, another schema version). */
  readonly skippedLines: number;
  /**
   * Files (and folders) that could not be read at all, with why: left out of the index (what it
   * held of them before is kept), the rest indexed all the same.
   */
  readonly unreadable: readonly UnreadableFile[];
}

/** How far an update has got, told after each batch it commits. */
export interface LibraryProgress {
  readonly filesRead: number;
  readonly filesToRead: number;
  readonly bytes: number;
}

/** Options of {@link updateLibrary}. */
export interface UpdateOptions {
  /** Bytes of lines staged before they are committed. @defaultValue 64 MiB */
  readonly batchBytes?: number;
  readonly onProgress?: (progress: LibraryProgress) => void;
}

interface KnownFile {
  readonly id: number;
  readonly indexed: number;
  readonly head: string;
}

/** A file's part to read: from where the index stopped (0 when new or rewritten) to its size. */
interface Work {
  readonly file: FoundFile;
  readonly id: number;
  readonly from: number;
}

/** One batch of staged lines: per file, where its staged lines start and end, and how many. */
interface Batch {
  bytes: number;
  readonly files: Map<
    number,
    {
      path: string;
      start: number;
      end: number;
      lines: number;
      head: string;
      /** Where the first line with bytes that are not UTF-8 starts. */
      notUtf8At?: number;
    }
  >;
}

/**
 * Brings the index up to date with the folder: a new file is read, a grown one from where the
 * index stopped, a rewritten one (shorter, or different first bytes) again from its start, and a
 * removed one is forgotten. Only complete lines are read: a torn last line waits until it is
 * complete. Lines are committed in batches, each with how far its files were read, so a process
 * killed in the middle leaves a consistent index that the next update completes. A file that
 * cannot be read is named in `unreadable` and the others are indexed.
 */
export async function updateLibrary(
  connection: DuckConnection,
  folder: string,
  options: UpdateOptions = {},
  found: readonly FoundFile[] = findTraceFiles(folder),
  unreadable: UnreadableFile[] = [],
): Promise<LibraryUpdate> {
  // DuckDB's default is most of the machine's memory; an index needs far less.
  await connection.run(`SET memory_limit = '512MB'`);
  const known = new Map(
    (await rowsOf(connection, 'SELECT file_id, path, indexed_bytes, head FROM trace_files')).map(
      row => [
        text(row.path),
        { id: Number(row.file_id), indexed: Number(row.indexed_bytes), head: text(row.head) },
      ],
    ),
  );
  const present = new Set(found.map(file => file.path));
  const gone = [...known].filter(([path]) => !present.has(path)).map(([, file]) => file.id);
  const { work, rewritten } = plan(found, known, unreadable);
  await forget(connection, [...gone, ...rewritten]);
  const totals = { bytes: 0, events: 0, skipped: 0 };
  const batchBytes = options.batchBytes ?? 64 * 1024 * 1024;
  let batch: Batch = { bytes: 0, files: new Map() };
  let appender = await connection.createAppender('staged_lines', 'main', 'temp');
  let filesRead = 0;
  const commit = async () => {
    appender.closeSync();
    const added = await commitBatch(connection, batch);
    totals.events += added.events;
    totals.skipped += added.skipped;
    batch = { bytes: 0, files: new Map() };
    appender = await connection.createAppender('staged_lines', 'main', 'temp');
    options.onProgress?.({ filesRead, filesToRead: work.length, bytes: totals.bytes });
  };
  const unreadableBefore = unreadable.length;
  for (const item of work) {
    try {
      for (const chunk of completeChunks(item.file.absolute, item.from, item.file.size)) {
        stage(appender, batch, item, chunk);
        totals.bytes += chunk.buffer.length;
        if (batch.bytes >= batchBytes) await commit();
      }
    } catch (error) {
      if (typeof (error as { code?: unknown }).code !== 'string') throw error;
      unreadable.push({ path: item.file.path, reason: unreadableReason(error) });
    }
    filesRead++;
  }
  if (batch.files.size > 0) await commit();
  appender.closeSync();
  // Written now into the database file, not left in the write-ahead log for the next opening.
  if (totals.bytes > 0 || gone.length > 0) await connection.run('CHECKPOINT');
  return {
    files: found.length,
    read: work.length - (unreadable.length - unreadableBefore),
    rewritten: rewritten.length,
    removed: gone.length,
    bytes: totals.bytes,
    events: totals.events,
    skippedLines: totals.skipped,
    unreadable,
  };
}

/** Which files to read and from where; which were rewritten and are read again. */
function plan(
  found: readonly FoundFile[],
  known: ReadonlyMap<string, KnownFile>,
  unreadable: UnreadableFile[],
): { work: Work[]; rewritten: number[] } {
  let nextId = [...known.values()].reduce((most, file) => Math.max(most, file.id), 0) + 1;
  const work: Work[] = [];
  const rewritten: number[] = [];
  for (const file of found) {
    const before = known.get(file.path);
    if (before === undefined) {
      if (file.size > 0) work.push({ file, id: nextId++, from: 0 });
      continue;
    }
    let head: string;
    try {
      head = readRange(file.absolute, 0, before.head.length / 2).toString('hex');
    } catch (error) {
      unreadable.push({ path: file.path, reason: unreadableReason(error) });
      continue;
    }
    if (file.size < before.indexed || head !== before.head) {
      rewritten.push(before.id);
      work.push({ file, id: before.id, from: 0 });
    } else if (file.size > before.indexed) work.push({ file, id: before.id, from: before.indexed });
  }
  return { work, rewritten };
}

/** Forgets files (gone, or to be read again): their events and how far they were read. */
async function forget(connection: DuckConnection, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const list = ids.join(', ');
  await inTransaction(connection, async () => {
    await connection.run(`DELETE FROM trace_events WHERE file_id IN (${list})`);
    await connection.run(`DELETE FROM trace_files WHERE file_id IN (${list})`);
  });
}

/** Lines longer than this many bytes are indexed with their long strings cut. */
const longLineBytes = 1 << 20;
/** How many characters of a long line's long string the index keeps. */
const keptCharacters = 1 << 16;

/**
 * A line's text as the index parses it. A line past 1 MiB (a tool result of 50 MB) has each of its
 * strings past 64 Ki characters cut to that, so parsing it in DuckDB takes memory in proportion to
 * what the views show, not to the line (the line itself stays whole in its file, where a run is
 * read from).
 */
function indexedText(buffer: Buffer, start: number, end: number): string {
  const text = buffer.toString('utf8', start, end);
  // Refused as every reader refuses it (counted as a line that is not an event, with why).
  if (nestsDeeperThan(text)) return nestedTooDeep;
  if (end - start <= longLineBytes) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text.slice(0, 1024); // still not JSON: counted as a line that is not an event
  }
  const open: unknown[] = [value];
  while (open.length > 0) {
    const next = open.pop();
    if (typeof next !== 'object' || next === null) continue;
    const entries = next as Record<string, unknown>;
    for (const key of Object.keys(entries)) {
      const field = entries[key];
      if (typeof field === 'string' && field.length > keptCharacters)
        entries[key] = `${field.slice(0, keptCharacters)}…`;
      else if (typeof field === 'object' && field !== null) open.push(field);
    }
  }
  return JSON.stringify(value);
}

/** What the index parses for a line nested deeper than the readers read. */
const nestedTooDeep = '{"nested_too_deep":true}';

/**
 * Stages a chunk's lines, each with its file and byte offset. A byte order mark at the file's
 * start is not part of its first line; the first line with bytes that are not UTF-8 is noted.
 */
function stage(
  appender: DuckDBAppender,
  batch: Batch,
  item: Work,
  chunk: { position: number; buffer: Buffer },
): void {
  const { buffer, position } = chunk;
  let entry = batch.files.get(item.id);
  if (entry === undefined) {
    const head = readRange(item.file.absolute, 0, Math.min(headBytes, item.file.size));
    entry = {
      path: item.file.path,
      start: position,
      end: position,
      lines: 0,
      head: head.toString('hex'),
    };
    batch.files.set(item.id, entry);
  }
  let start = position === 0 && buffer.subarray(0, 3).equals(byteOrderMark) ? 3 : 0;
  const utf8 = isUtf8(buffer);
  while (start < buffer.length) {
    const newline = buffer.indexOf(0x0a, start);
    if (!utf8 && entry.notUtf8At === undefined && !isUtf8(buffer.subarray(start, newline)))
      entry.notUtf8At = position + start;
    if (newline > start) {
      appender.appendInteger(item.id);
      appender.appendDouble(position + start);
      appender.appendInteger(newline - start);
      appender.appendVarchar(indexedText(buffer, start, newline));
      appender.endRow();
      entry.lines++;
    }
    start = newline + 1;
  }
  entry.end = position + buffer.length;
  batch.bytes += buffer.length;
}

/**
 * Commits a batch in one transaction: its events, how far each of its files is read, and how many
 * of its lines were not events. Returns what it added.
 */
async function commitBatch(
  connection: DuckConnection,
  batch: Batch,
): Promise<{ events: number; skipped: number }> {
  return inTransaction(connection, async () => {
    await connection.run(parseStagedLines);
    await connection.run(insertParsedEvents);
    const skipped = new Map(
      (await rowsOf(connection, skippedParsedLines)).map(row => [
        Number(row.file_id),
        { count: Number(row.n), first: Number(row.first) },
      ]),
    );
    const files = await connection.createAppender('staged_files', 'main', 'temp');
    for (const [id, file] of batch.files) {
      files.appendInteger(id);
      files.appendVarchar(file.path);
      files.appendDouble(file.end);
      files.appendVarchar(file.head);
      if (file.notUtf8At === undefined) files.appendNull();
      else files.appendDouble(file.notUtf8At);
      files.endRow();
    }
    files.closeSync();
    await connection.run(recordStagedFiles);
    await connection.run('DELETE FROM staged_lines');
    await connection.run('DELETE FROM staged_files');
    await connection.run('DROP TABLE parsed_lines');
    const staged = [...batch.files.values()].reduce((sum, file) => sum + file.lines, 0);
    const notEvents = [...skipped.values()].reduce((sum, file) => sum + file.count, 0);
    return { events: staged - notEvents, skipped: notEvents };
  });
}
