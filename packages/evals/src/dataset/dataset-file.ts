import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { canonicalJson } from '@agent-trace/core/util';
import { DataFileError } from '../data/load-cases.js';

/** A case of a dataset file, as the file holds it (made of a run or written by hand). */
export type StoredCase = Readonly<Record<string, unknown>> & { readonly input: unknown };

/** A dataset file read: its cases and its content-hash version. */
export interface DatasetContent {
  readonly file: string;
  readonly cases: readonly StoredCase[];
  /** The first 12 hex digits of the SHA-256 of its cases as canonical JSON, a line each. */
  readonly version: string;
}

/** The content-hash version of a dataset's cases: the same cases, the same version. */
export function datasetVersion(cases: readonly StoredCase[]): string {
  const hash = createHash('sha256');
  for (const each of cases) hash.update(`${canonicalJson(each)}\n`);
  return hash.digest('hex').slice(0, 12);
}

/** Reads a `.jsonl` dataset (a case a line); a missing file is an empty dataset when `missingOk`. */
export function readDataset(file: string, missingOk = false): DatasetContent {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (missingOk && (error as { code?: unknown }).code === 'ENOENT')
      return { file, cases: [], version: datasetVersion([]) };
    throw new DataFileError(file, '', `cannot be read: ${(error as Error).message}`);
  }
  return { file, ...parseDataset(file, text) };
}

/** The cases of a dataset's text, each line checked to be a case. */
export function parseDataset(file: string, text: string): { cases: StoredCase[]; version: string } {
  const cases: StoredCase[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new DataFileError(file, `:${index + 1}`, `not JSON (${(error as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || !('input' in value))
      throw new DataFileError(file, `:${index + 1}`, 'a case is an object with an input');
    cases.push(value);
  }
  return { cases, version: datasetVersion(cases) };
}

/** The text of a dataset: a case a line. */
export function datasetText(cases: readonly StoredCase[]): string {
  return cases.map(each => `${JSON.stringify(each)}\n`).join('');
}

/** Writes a dataset whole, through a file beside it renamed over it: never half written. */
export function writeDataset(file: string, cases: readonly StoredCase[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const next = `${file}.${process.pid}.writing`;
  writeFileSync(next, datasetText(cases));
  renameSync(next, file);
}
