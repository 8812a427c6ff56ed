import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DatasetError } from './dataset-error.js';
import {
  datasetText,
  parseDataset,
  readDataset,
  type DatasetContent,
  type StoredCase,
} from './dataset-file.js';

/** One change a dataset went through (a `dataset add`), as its log keeps it. */
export interface DatasetVersionEntry {
  readonly version: string;
  /** The version it was made from. */
  readonly previous: string;
  /** ISO-8601. */
  readonly time: string;
  readonly cases: number;
  /** The cases added (their ids), and how many runs were left out as already in it. */
  readonly added: readonly string[];
  readonly duplicates: number;
  /** Where the runs came from and how they were picked. */
  readonly from?: string;
  readonly where?: string;
  readonly runs?: readonly string[];
}

/**
 * Where a dataset's versions are kept: `.datasets/<file name>/` beside it, a copy of each version
 * (`<version>.jsonl`) and the log of its changes (`log.jsonl`). Commit it with the dataset to
 * share its history.
 */
export function versionsFolder(file: string): string {
  return join(dirname(file), '.datasets', basename(file));
}

/** Keeps a copy of a dataset's content under its version (once). */
export function keepVersion(content: DatasetContent): void {
  const folder = versionsFolder(content.file);
  const copy = join(folder, `${content.version}.jsonl`);
  if (existsSync(copy)) return;
  mkdirSync(folder, { recursive: true });
  writeFileSync(copy, datasetText(content.cases));
}

/** Adds a change to the dataset's log. */
export function logVersion(file: string, entry: DatasetVersionEntry): void {
  const folder = versionsFolder(file);
  mkdirSync(folder, { recursive: true });
  appendFileSync(join(folder, 'log.jsonl'), `${JSON.stringify(entry)}\n`);
}

/** The dataset's changes, the oldest first (none for a dataset never added to). */
export function versionLog(file: string): DatasetVersionEntry[] {
  const log = join(versionsFolder(file), 'log.jsonl');
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => JSON.parse(line) as DatasetVersionEntry);
}

/**
 * A dataset as `spec` names it: a file (its content now), or `file@version` (a kept version, by
 * its first digits). Throws a `DatasetError` naming the versions kept when there is no such one.
 */
export function datasetAt(
  spec: string,
): DatasetContent & { readonly cases: readonly StoredCase[] } {
  const at = spec.lastIndexOf('@');
  if (at <= 0) return readDataset(spec);
  const file = spec.slice(0, at);
  const wanted = spec.slice(at + 1);
  const current = existsSync(file) ? readDataset(file) : undefined;
  if (current !== undefined && current.version.startsWith(wanted)) return current;
  const folder = versionsFolder(file);
  const kept = existsSync(folder)
    ? readdirSync(folder)
        .filter(name => name.endsWith('.jsonl') && name !== 'log.jsonl')
        .map(name => name.slice(0, -'.jsonl'.length))
    : [];
  const matching = kept.filter(version => version.startsWith(wanted));
  if (matching.length !== 1)
    throw new DatasetError(
      `${spec}: ${matching.length === 0 ? 'no such version' : `${matching.length} versions start so; give more digits`} of ${file}. Its versions kept: ${kept.join(', ') || '(none)'}${current === undefined ? '' : `; now ${current.version}`}.`,
    );
  const path = join(folder, `${matching[0]!}.jsonl`);
  return { file: spec, ...parseDataset(path, readFileSync(path, 'utf8')) };
}
