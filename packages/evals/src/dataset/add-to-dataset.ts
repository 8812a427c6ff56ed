import { dirname, resolve } from 'node:path';
import { casesFromRuns } from './cases-from-runs.js';
import { inputKey } from './dataset-case.js';
import { readDataset, writeDataset, datasetVersion, type StoredCase } from './dataset-file.js';
import { keepVersion, logVersion } from './dataset-versions.js';
import { runsForDataset, type RunSelection } from './runs-for-dataset.js';

/** Options of {@link addToDataset}: the runs to add, and when. */
export interface AddToDatasetOptions extends RunSelection {
  /** The clock the version log reads. @defaultValue the system's */
  readonly now?: () => Date;
}

/** What a {@link addToDataset} did. */
export interface DatasetAddition {
  readonly file: string;
  /** The runs the selection picked. */
  readonly selected: number;
  /** The ids of the cases added (each a picked run's id). */
  readonly added: readonly string[];
  /** Picked runs left out: their input is in the dataset already (or came twice). */
  readonly duplicates: number;
  /** The dataset's cases now. */
  readonly cases: number;
  /** Its content-hash version before and after. */
  readonly previous: string;
  readonly version: string;
  /** What the library could not read, a line per file (runs in those may be missing). */
  readonly problems: readonly string[];
}

/**
 * Turns recorded runs into cases of a `.jsonl` dataset (made when missing): the runs the
 * selection picks from a trace library, each a case with its input, its output and trajectory as
 * `expected` and its lineage in `metadata.source`. Cases are deduplicated by input: a run whose
 * input the dataset holds already adds nothing, so adding the same runs again adds none. The file
 * is written whole (never half), its version before and after kept beside it, and the change
 * logged (`.datasets/<name>/`). Throws a `DatasetError` for a selection the library refuses.
 *
 * @example
 * ```ts
 * const added = await addToDataset('evals/desk.jsonl', { from: 'traces', where: "run IN (SELECT run FROM feedback WHERE score < 0)" });
 * ```
 */
export async function addToDataset(
  file: string,
  options: AddToDatasetOptions,
): Promise<DatasetAddition> {
  const before = readDataset(file, true);
  const { runs, problems } = await runsForDataset(options);
  const made = await casesFromRuns(runs, dirname(resolve(file)));
  const seen = new Set(before.cases.map(each => inputKey(each.input)));
  const added: StoredCase[] = [];
  for (const each of made) {
    const key = inputKey(each.input);
    if (seen.has(key)) continue;
    seen.add(key);
    added.push(each as unknown as StoredCase);
  }
  const cases = [...before.cases, ...added];
  const version = datasetVersion(cases);
  if (added.length > 0) {
    if (before.cases.length > 0) keepVersion(before);
    writeDataset(file, cases);
    keepVersion({ file, cases, version });
    logVersion(file, {
      version,
      previous: before.version,
      time: (options.now?.() ?? new Date()).toISOString(),
      cases: cases.length,
      added: added.map(each => String(each.id)),
      duplicates: made.length - added.length,
      from: options.from,
      ...(options.where === undefined ? {} : { where: options.where }),
      ...(options.runs === undefined ? {} : { runs: options.runs }),
    });
  }
  return {
    file,
    selected: runs.length,
    added: added.map(each => String(each.id)),
    duplicates: made.length - added.length,
    cases: cases.length,
    previous: before.version,
    version,
    problems,
  };
}
