/**
 * The trace library: a folder of 10,000 trace files (a few GB, written from the suite's own desk
 * runs), indexed from scratch beside DuckDB reading the same files with its own JSON reader (the
 * engine's floor) and beside a plain read of every byte; re-indexed after an append to 10 files;
 * and the guide's questions asked of the index beside the first one answered by reading every
 * file. Each cell runs in a process of its own with a time cap.
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledWorker } from './compiled.js';
import { figure, ratio, runWorker, table } from './measure.js';
import { copiedRun, deskRunLines, type DeskRun } from '../test/support/trace-folder.js';

/** What the library benchmark measured. */
export interface LibraryResult {
  readonly files: number;
  readonly bytes: number;
  readonly events: number;
  readonly cells: readonly LibraryCell[];
  readonly answers: readonly { question: string; rows: number; milliseconds: number }[];
  readonly appended: { bytes: number; read: number; milliseconds: number } | { failed: string };
  /** The bytes appended to the 10 files. */
  readonly appendedBytes: number;
}

/** One timed cell, or why it has no time (it failed, or ran past its cap). */
export type LibraryCell =
  | { readonly name: string; readonly milliseconds: number; readonly peakRssMb: number }
  | { readonly name: string; readonly failed: string };

/** Writes `files` files of `runsPerFile` desk runs each, every file an hour later; returns bytes. */
async function writeFolder(folder: string, files: number, runsPerFile: number): Promise<number> {
  const kinds: DeskRun[] = ['refunded', 'refund_fails', 'answered'];
  const lines = await Promise.all(kinds.map(kind => deskRunLines(kind)));
  mkdirSync(folder, { recursive: true });
  let bytes = 0;
  for (let file = 0; file < files; file++) {
    // One copy per kind a file, shifted to the file's hour; its runs differ by id only.
    const templates = lines.map(kind => copiedRun(kind, 'RUN-ID', (file - files) * 3_600_000));
    let text = '';
    for (let index = 0; index < runsPerFile; index++)
      text += templates[index % templates.length]!.replaceAll('RUN-ID', `run-${file}-${index}`);
    writeFileSync(join(folder, `trace-${String(file).padStart(5, '0')}.jsonl`), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

/** Each cell's worker, compiled as a built application runs (tsx alone holds ~50 MB). */
const worker = 'bench/pipeline/library-worker.ts';

async function cell(
  name: string,
  args: readonly string[],
  capMs: number,
): Promise<LibraryCell & Record<string, unknown>> {
  try {
    const sample = await runWorker<{ milliseconds: number; peakRssMb: number }>(
      await compiledWorker(worker),
      args,
      capMs,
    );
    return { name, ...sample };
  } catch (error) {
    return { name, failed: error instanceof Error ? error.message : String(error) };
  }
}

/** Measures the library on `files` files of `runsPerFile` runs. */
export async function measureLibrary(
  files: number,
  runsPerFile: number,
  capMs: number,
): Promise<LibraryResult> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-bench-library-'));
  try {
    const bytes = await writeFolder(folder, files, runsPerFile);
    const index = await cell('agent-trace index (from scratch)', ['index', folder], capMs);
    const floor = await cell(
      'DuckDB alone: read_ndjson of the same files into a table (no offsets)',
      ['floor', folder],
      capMs,
    );
    const scan = await cell(
      'first question without an index: read and parse every file',
      ['scan', folder],
      capMs,
    );
    const appendedRun = copiedRun(await deskRunLines('refund_fails'), 'run-appended', 0);
    const appendedTo = readdirSync(folder)
      .filter(each => each.endsWith('.jsonl'))
      .slice(0, 10);
    for (const name of appendedTo) appendFileSync(join(folder, name), appendedRun);
    const again = await cell(
      're-index after appending a run to 10 files',
      ['index', folder],
      capMs,
    );
    const questions = await runWorker<{ answers: LibraryResult['answers'] }>(
      await compiledWorker(worker),
      ['questions', folder],
      capMs,
    ).catch(() => ({ answers: [] }));
    return {
      files,
      bytes,
      events: 'events' in index ? Number(index.events) : 0,
      cells: [index, floor, scan, again],
      answers: questions.answers,
      appendedBytes: Buffer.byteLength(appendedRun) * appendedTo.length,
      appended:
        'failed' in again
          ? { failed: String(again.failed) }
          : {
              bytes: Number(again.bytes),
              read: Number(again.read),
              milliseconds: Number(again.milliseconds),
            },
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The tables: the cells with their ratios to the engine's floor, and the questions. */
export function formatLibrary(result: LibraryResult): string {
  const time = (each: LibraryCell) => ('failed' in each ? undefined : each.milliseconds);
  const floor = time(result.cells[1]!);
  const rows = result.cells.map(each =>
    'failed' in each
      ? [each.name, each.failed, '', '']
      : [
          each.name,
          `${figure(each.milliseconds / 1000)} s`,
          floor === undefined ? '' : ratio(each.milliseconds / floor),
          `${figure(each.peakRssMb)} MB`,
        ],
  );
  const head = `${result.files.toLocaleString('en')} files, ${(result.bytes / 2 ** 30).toFixed(2)} GB, ${result.events.toLocaleString('en')} events`;
  const appended =
    'failed' in result.appended
      ? ''
      : `\nre-index read ${result.appended.bytes.toLocaleString('en')} bytes of ${result.appended.read} files (only what was appended)`;
  const scan = time(result.cells[2]!);
  const answers = result.answers.map(answer => [
    answer.question,
    `${figure(answer.milliseconds)} ms`,
    String(answer.rows),
    scan === undefined ? '' : ratio(answer.milliseconds / scan),
  ]);
  return `${head}\n${table([['cell', 'time', '× DuckDB alone', 'peak RSS'], ...rows])}${appended}\n\n${table(
    [['question (the index)', 'time', 'rows', '× reading every file'], ...answers],
  )}`;
}
