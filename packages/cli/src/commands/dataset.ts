import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AgentTraceError } from '@agent-trace/core';
import {
  addToDataset,
  datasetAt,
  DataFileError,
  diffDatasets,
  readDataset,
  sourceOf,
  versionLog,
  type DatasetDiff,
  type StoredCase,
} from '@agent-trace/evals';
import { plural } from '../render/plural.js';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';

/** What every dataset command is given. */
export interface DatasetCommandOptions {
  readonly json?: boolean;
  readonly style: Style;
}

const cut = (text: string, length = 60): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

/** A case's input in a few words: a turn's message with how long its history is. */
function inputText(input: unknown): string {
  const turn = input as { message?: unknown; history?: unknown[] } | null;
  if (typeof turn?.message === 'string' && Array.isArray(turn.history))
    return `${JSON.stringify(cut(turn.message))} after ${plural(turn.history.length, 'message')}`;
  return JSON.stringify(cut(typeof input === 'string' ? input : JSON.stringify(input)));
}

/** Runs a command's work; a dataset, trace or SQL that is wrong is exit 2 with what is wrong. */
async function guarded(work: () => Promise<CommandResult> | CommandResult): Promise<CommandResult> {
  try {
    return await work();
  } catch (error) {
    if (!AgentTraceError.isInstance(error) && !(error instanceof DataFileError)) throw error;
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: error.message };
  }
}

/**
 * `agent-trace dataset add <dataset> --from <folder> (--where <sql> | --run <id>…)`: recorded runs
 * become cases, deduplicated by input, with their lineage. Exit 0, 2 when the selection or a file
 * is wrong.
 */
export function datasetAddCommand(
  file: string,
  options: DatasetCommandOptions & { from: string; where?: string; runs?: readonly string[] },
): Promise<CommandResult> {
  return guarded(async () => {
    const added = await addToDataset(file, {
      from: options.from,
      ...(options.where === undefined ? {} : { where: options.where }),
      ...(options.runs === undefined || options.runs.length === 0 ? {} : { runs: options.runs }),
    });
    const { style } = options;
    const stdout =
      options.json === true
        ? JSON.stringify(added, null, 2)
        : `${file}: ${plural(added.selected, 'run')} picked, ${style.green(`${added.added.length} added`)}, ${added.duplicates} already in it (the same input); ${plural(added.cases, 'case')} now, version ${added.version}${added.version === added.previous ? ' (unchanged)' : ` (was ${added.previous})`}.`;
    const stderr = added.problems
      .map(problem => `warning: the library could not read ${problem}`)
      .join('\n');
    return { exitCode: exitCodes.ok, stdout, stderr };
  });
}

/** `agent-trace dataset show <dataset>[@version]`: its version, history and cases. */
export function datasetShowCommand(
  spec: string,
  options: DatasetCommandOptions & { limit?: number },
): Promise<CommandResult> {
  return guarded(() => {
    const content = datasetAt(spec);
    const file = spec.includes('@') ? spec.slice(0, spec.lastIndexOf('@')) : spec;
    const log = versionLog(file);
    if (options.json === true)
      return {
        exitCode: exitCodes.ok,
        stdout: JSON.stringify({ ...content, log }, null, 2),
        stderr: '',
      };
    const fromRuns = content.cases.filter(each => sourceOf(each.metadata) !== undefined).length;
    const shown = content.cases.slice(0, options.limit ?? 20);
    const lines = [
      `${file} @ ${content.version}: ${plural(content.cases.length, 'case')}, ${fromRuns} made of recorded runs`,
      ...log.map(
        entry =>
          `  ${entry.time}  ${entry.previous} → ${entry.version}  +${entry.added.length} (${entry.duplicates} already in it)${entry.where === undefined ? '' : `  --where ${entry.where}`}`,
      ),
      '',
      ...shown.map(each => caseLine(each, options.style)),
      ...(shown.length < content.cases.length
        ? [`… and ${content.cases.length - shown.length} more (--limit)`]
        : []),
    ];
    return { exitCode: exitCodes.ok, stdout: lines.join('\n'), stderr: '' };
  });
}

function caseLine(each: StoredCase, style: Style): string {
  const source = sourceOf(each.metadata);
  const from = source === undefined ? '' : style.dim(`  from run ${source.run} in ${source.trace}`);
  const id = typeof each.id === 'string' || typeof each.id === 'number' ? each.id : '(no id)';
  return `${id}  ${inputText(each.input)}${from}`;
}

/** `agent-trace dataset list [folder]`: the datasets under a folder, with their versions. */
export function datasetListCommand(
  folder: string,
  options: DatasetCommandOptions,
): Promise<CommandResult> {
  return guarded(() => {
    const found = datasetFiles(folder).map(file => {
      const content = readDataset(file, true);
      const log = versionLog(file);
      return {
        file: relative(process.cwd(), file) || file,
        cases: content.cases.length,
        version: content.version,
        versions: new Set(log.flatMap(entry => [entry.previous, entry.version])).size,
        changed: log.at(-1)?.time,
      };
    });
    if (options.json === true)
      return { exitCode: exitCodes.ok, stdout: JSON.stringify(found, null, 2), stderr: '' };
    if (found.length === 0)
      return {
        exitCode: exitCodes.ok,
        stdout: `No dataset under ${folder}: 'agent-trace dataset add <file.jsonl> --from traces --where …' makes one.`,
        stderr: '',
      };
    const lines = found.map(
      each =>
        `${each.file}  ${plural(each.cases, 'case')}  version ${each.version}  ${plural(each.versions, 'version')} kept${each.changed === undefined ? '' : `  last added ${each.changed}`}`,
    );
    return { exitCode: exitCodes.ok, stdout: lines.join('\n'), stderr: '' };
  });
}

/** The dataset files under `folder`: those with a log of versions (`.datasets/<name>/`). */
function datasetFiles(folder: string): string[] {
  const found: string[] = [];
  const visit = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === 'node_modules') continue;
      if (entry.name === '.datasets') {
        for (const kept of readdirSync(join(dir, entry.name)))
          if (existsSync(join(dir, entry.name, kept, 'log.jsonl'))) found.push(join(dir, kept));
      } else if (!entry.name.startsWith('.')) visit(join(dir, entry.name));
    }
  };
  visit(folder);
  return found.sort();
}

/**
 * `agent-trace dataset diff <a> [b]`: what changed between two versions (`file@version`, or a
 * file as it is now); with one, the file's last change. Exit 0, 2 when a version is not found.
 */
export function datasetDiffCommand(
  from: string,
  to: string | undefined,
  options: DatasetCommandOptions,
): Promise<CommandResult> {
  return guarded(() => {
    let before = from;
    let after = to ?? from;
    if (to === undefined) {
      const last = versionLog(from).at(-1);
      if (last === undefined)
        return {
          exitCode: exitCodes.unreadable,
          stdout: '',
          stderr: `${from} has no versions kept: give two (a file, or file@version).`,
        };
      before = `${from}@${last.previous}`;
      after = readDataset(from).version === last.version ? from : `${from}@${last.version}`;
    }
    const diff = diffDatasets(datasetAt(before), datasetAt(after));
    return {
      exitCode: exitCodes.ok,
      stdout: options.json === true ? JSON.stringify(diff, null, 2) : diffText(diff, options.style),
      stderr: '',
    };
  });
}

function diffText(diff: DatasetDiff, style: Style): string {
  return [
    `${diff.from} → ${diff.to}: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed, ${diff.same} the same`,
    ...diff.added.map(each => style.green(`+ ${caseLine(each, style)}`)),
    ...diff.removed.map(each => style.red(`- ${caseLine(each, style)}`)),
    ...diff.changed.map(each => style.yellow(`~ ${each.id}: ${each.fields.join(', ')} changed`)),
  ].join('\n');
}
