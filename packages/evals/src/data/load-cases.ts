import { readFile } from 'node:fs/promises';
import { dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { importPeer } from '@agent-trace/core/util';
import type * as CsvSync from 'csv-parse/sync';
import type * as Yaml from 'yaml';
import { z } from 'zod';
import type { EvalCase } from '../scorer.js';

/** A case as a data file holds it. */
const caseShape = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  input: z.unknown().refine(value => value !== undefined, 'a case needs an input'),
  expected: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** A data file that does not hold cases: which file, where, and what is wrong. */
export class DataFileError extends Error {
  constructor(file: string, where: string, problem: string) {
    super(`${file}${where}: ${problem}`);
    this.name = 'DataFileError';
  }
}

/**
 * The cases of a data file: JSONL (a case a line), JSON (an array), YAML (a list, or `cases:`) or
 * CSV (a header row; `input`, `expected` and `id` columns, the others metadata). Each case is
 * `{ input, expected?, metadata?, id? }`; a line or item that is not says where. YAML and CSV need
 * the optional peers `yaml` and `csv-parse`: a missing one is a `MissingPeerError` naming it.
 */
export async function loadCases(file: string): Promise<EvalCase[]> {
  const text = await readFile(file, 'utf8');
  switch (extname(file).toLowerCase()) {
    case '.jsonl':
      return fromJsonl(file, text);
    case '.json':
      return fromItems(file, parseJson(file, '', text), index => ` item ${index + 1}`);
    case '.yaml':
    case '.yml':
      return fromYaml(file, text, await peer(file, 'YAML', 'yaml', '^2.8.0', () => import('yaml')));
    case '.csv':
      return fromCsv(
        file,
        text,
        await peer(file, 'CSV', 'csv-parse', '^6.1.0', () => import('csv-parse/sync')),
      );
    default:
      throw new DataFileError(
        file,
        '',
        'a data file is .jsonl, .json, .yaml, .yml or .csv; give the cases in code otherwise',
      );
  }
}

/** An optional peer that reading `file` needs; a missing one says what to install. */
function peer<Module>(
  file: string,
  format: string,
  name: string,
  range: string,
  load: () => Promise<Module>,
): Promise<Module> {
  return importPeer(load, {
    peer: name,
    needer: `Reading the ${format} cases of '${file}'`,
    range,
  });
}

function fromJsonl(file: string, text: string): EvalCase[] {
  const cases: EvalCase[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    cases.push(checked(file, `:${index + 1}`, parseJson(file, `:${index + 1}`, line)));
  }
  return cases;
}

function fromYaml(file: string, text: string, yaml: typeof Yaml): EvalCase[] {
  const lineCounter = new yaml.LineCounter();
  const document = yaml.parseDocument(text, { lineCounter });
  const [error] = document.errors;
  if (error !== undefined) {
    const at = lineCounter.linePos(error.pos[0]);
    throw new DataFileError(file, `:${at.line}:${at.col}`, error.message.split('\n')[0] ?? '');
  }
  const value = document.toJS() as unknown;
  const items = Array.isArray(value) ? value : (value as { cases?: unknown } | null)?.cases;
  return fromItems(file, items, index => ` item ${index + 1}`);
}

function fromCsv(file: string, text: string, csv: typeof CsvSync): EvalCase[] {
  let rows: Record<string, string>[];
  try {
    rows = csv.parse(text, { columns: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw new DataFileError(file, '', error instanceof Error ? error.message : String(error));
  }
  return rows.map((row, index) => {
    const { id, input, expected, ...metadata } = row;
    return checked(file, `:${index + 2}`, {
      ...(id === undefined || id === '' ? {} : { id }),
      input,
      ...(expected === undefined || expected === '' ? {} : { expected }),
      ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
    });
  });
}

function fromItems(file: string, items: unknown, where: (index: number) => string): EvalCase[] {
  if (!Array.isArray(items))
    throw new DataFileError(file, '', 'expected a list of cases (or `cases:` holding one)');
  return items.map((item, index) => checked(file, where(index), item));
}

function parseJson(file: string, where: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new DataFileError(file, where, error instanceof Error ? error.message : String(error));
  }
}

function checked(file: string, where: string, value: unknown): EvalCase {
  const parsed = caseShape.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DataFileError(
      file,
      where,
      `${issue?.path.join('.') || 'the case'}: ${issue?.message ?? 'is not a case'} (a case is { input, expected?, metadata?, id? })`,
    );
  }
  const { id, metadata, ...rest } = parsed.data;
  return {
    ...rest,
    ...(metadata === undefined ? {} : { metadata: withTraceFromHere(file, metadata) }),
    ...(id === undefined ? {} : { id: String(id) }),
  };
}

/**
 * A case made of a recorded run names its trace from the data file's folder
 * (`metadata.source.trace`); loaded, it names it from the working folder, so it opens from here.
 */
function withTraceFromHere(
  file: string,
  metadata: Record<string, unknown>,
): Record<string, unknown> {
  const source = metadata.source as { run?: unknown; trace?: unknown } | undefined;
  if (typeof source?.run !== 'string' || typeof source.trace !== 'string') return metadata;
  if (isAbsolute(source.trace)) return metadata;
  const trace = relative(process.cwd(), resolve(dirname(file), source.trace)).split(sep).join('/');
  return { ...metadata, source: { ...source, trace } };
}
