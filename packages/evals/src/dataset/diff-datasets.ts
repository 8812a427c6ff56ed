import { canonicalJson } from '@agent-trace/core/util';
import { inputKey } from './dataset-case.js';
import type { DatasetContent, StoredCase } from './dataset-file.js';

/** A case both versions hold (by id, else by input) whose content differs: which fields. */
export interface ChangedCase {
  readonly id: string;
  readonly fields: readonly string[];
}

/** What changed from one version of a dataset to another. */
export interface DatasetDiff {
  readonly from: string;
  readonly to: string;
  readonly added: readonly StoredCase[];
  readonly removed: readonly StoredCase[];
  readonly changed: readonly ChangedCase[];
  readonly same: number;
}

/** A case's name in a diff: its id, else its input. */
const nameOf = (each: StoredCase): string =>
  typeof each.id === 'string' || typeof each.id === 'number'
    ? String(each.id)
    : `input ${inputKey(each.input)}`;

/**
 * What changed between two versions of a dataset: the cases added and removed, and those both
 * hold (paired by id, a case without one by its input) that differ, with the fields that do
 * (`input`, `expected`, `metadata`, …).
 */
export function diffDatasets(from: DatasetContent, to: DatasetContent): DatasetDiff {
  const before = new Map(from.cases.map(each => [nameOf(each), each]));
  const after = new Map(to.cases.map(each => [nameOf(each), each]));
  const changed: ChangedCase[] = [];
  let same = 0;
  for (const [name, each] of after) {
    const old = before.get(name);
    if (old === undefined) continue;
    const fields = [...new Set([...Object.keys(old), ...Object.keys(each)])].filter(
      field => canonicalJson(old[field] ?? null) !== canonicalJson(each[field] ?? null),
    );
    if (fields.length === 0) same++;
    else changed.push({ id: name, fields: fields.sort() });
  }
  return {
    from: `${from.file} (${from.version})`,
    to: `${to.file} (${to.version})`,
    added: [...after].filter(([name]) => !before.has(name)).map(([, each]) => each),
    removed: [...before].filter(([name]) => !after.has(name)).map(([, each]) => each),
    changed,
    same,
  };
}
