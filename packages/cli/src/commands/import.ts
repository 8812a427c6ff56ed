import { loadOptional } from '../program/optional-package.js';
import { readFile, writeFile } from 'node:fs/promises';
import { validateTraceFile } from '@agent-trace/trace';
import type { Evaluation, TraceEvent } from '@agent-trace/core';
import {
  fetchJaegerSpans,
  importSpans,
  readOtlpJson,
  type ForeignSpan,
  type OtlpJsonError,
  type JaegerQuery,
} from '@agent-trace/trace/import';
import { durationMs } from '@agent-trace/trace/library';
import { exitCodes, type CommandResult } from './command-result.js';

/** Options of {@link importCommand}: a file, or a Jaeger query service and what to ask it. */
export interface ImportCommandOptions {
  /** Where to write the trace (JSONL). */
  readonly out: string;
  /** An OTLP JSON file (the Collector's file exporter). */
  readonly file?: string;
  /** Jaeger's query service, e.g. http://localhost:16686. */
  readonly jaeger?: string;
  readonly traceId?: string;
  readonly service?: string;
  /** How far back to look for the service's traces: `30m`, `2h`, `7d`. @defaultValue 1h */
  readonly since?: string;
  readonly limit?: number;
  /** Refuse a file with a line that is not JSON, instead of importing the rest. */
  readonly strict?: boolean;
  /** Keep the file's evaluation events with the runs they judge as an experiment in this store. */
  readonly store?: string;
  /** With `store`: the experiment's eval name. @defaultValue 'imported' */
  readonly eval?: string;
  /** For tests. @defaultValue the current time */
  readonly now?: number;
}

/**
 * `agent-trace import`: GenAI-convention spans back into an agent-trace trace, from an OTLP JSON
 * file or a Jaeger query service, written as JSONL for `replay`, `view`, `stats` and `diff`. Says
 * how many runs it made and which spans it could not map. Exit 0 written, 1 written but invalid,
 * 2 nothing could be read.
 */
export async function importCommand(options: ImportCommandOptions): Promise<CommandResult> {
  let spans: ForeignSpan[];
  let evaluations: readonly Evaluation[];
  const badLines: OtlpJsonError[] = [];
  try {
    ({ spans, evaluations } = await inputOf(
      options,
      options.strict === true ? undefined : badLines,
    ));
  } catch (error) {
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: (error as Error).message };
  }
  const skipped = skippedLines(badLines, options.file);
  if (spans.length === 0)
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: [
        `No spans found in ${options.file ?? options.jaeger ?? 'the input'}: nothing imported.`,
        ...skipped,
      ].join('\n'),
    };
  const { events, traces, plainSpans, orphans } = importSpans(spans);
  await writeFile(options.out, events.map(event => `${JSON.stringify(event)}\n`).join(''));
  // What was written, as `agent-trace validate` reads it back: a field left undefined in memory
  // is gone from the file.
  const { problems } = await validateTraceFile(options.out);
  const lines = [
    `imported ${spans.length} spans of ${traces.length} trace${traces.length === 1 ? '' : 's'} into ${options.out}: ${events.length} events`,
    ...(plainSpans.length === 0
      ? []
      : [
          `kept as plain spans (not GenAI agents, model calls or tool calls): ${plainSpans
            .map(each => `${each.name} ×${each.count}`)
            .join(', ')}`,
        ]),
    ...orphanLines(orphans),
    ...(await experimentLines(options, events, evaluations)),
    ...problems.map(problem => `invalid: ${problem.message}`),
  ];
  return {
    exitCode: problems.length === 0 ? exitCodes.ok : exitCodes.failed,
    stdout: `${lines.join('\n')}\n`,
    stderr: skipped.join('\n'),
  };
}

/** The lines of the file that were not JSON, skipped: by number, and how to refuse them instead. */
function skippedLines(badLines: readonly OtlpJsonError[], file: string | undefined): string[] {
  if (badLines.length === 0) return [];
  const numbers = badLines.map(problem => problem.line ?? '?');
  return [
    `skipped ${badLines.length} line${badLines.length === 1 ? '' : 's'} of ${file ?? 'the input'} that ${badLines.length === 1 ? 'is' : 'are'} not JSON (line ${numbers.slice(0, 20).join(', ')}${numbers.length > 20 ? ', …' : ''}); the rest is imported (--strict refuses such a file)`,
    ...badLines.slice(0, 3).map(problem => `  ${problem.message.split(' An OTLP JSON file')[0]}`),
  ];
}

/** What the import says of spans whose parent was not among the spans read. */
function orphanLines(orphans: ReturnType<typeof importSpans>['orphans']): string[] {
  if (orphans.length === 0) return [];
  const named = orphans.slice(0, 5).map(orphan => `${orphan.name} (parent ${orphan.parentSpanId})`);
  return [
    `${orphans.length} span${orphans.length === 1 ? "'s parent is" : "s' parents are"} not in the input, so ${orphans.length === 1 ? 'it is' : 'they are'} imported at the top of ${orphans.length === 1 ? 'its' : 'their'} trace: ${named.join(', ')}${orphans.length > 5 ? ', …' : ''}`,
  ];
}

/** The spans to import, and a file's evaluation events (Jaeger keeps no log records). */
async function inputOf(
  options: ImportCommandOptions,
  badLines: OtlpJsonError[] | undefined,
): Promise<{ spans: ForeignSpan[]; evaluations: readonly Evaluation[] }> {
  if (options.file !== undefined && options.jaeger !== undefined)
    throw new Error('Give an OTLP JSON file or --jaeger, not both.');
  if (options.file !== undefined) {
    let text: string;
    try {
      text = await readFile(options.file, 'utf8');
    } catch (error) {
      throw new Error(`Cannot read ${options.file}: ${(error as Error).message}`);
    }
    return readOtlpJson(
      text,
      options.file,
      badLines === undefined ? {} : { onBadLine: problem => badLines.push(problem) },
    );
  }
  if (options.jaeger === undefined)
    throw new Error(
      'Nothing to import: give an OTLP JSON file (agent-trace import spans.json --out trace.jsonl) or --jaeger <url> with --trace-id or --service.',
    );
  return { spans: await fetchJaegerSpans(jaegerQuery(options.jaeger, options)), evaluations: [] };
}

function jaegerQuery(url: string, options: ImportCommandOptions): JaegerQuery {
  if (options.traceId !== undefined) return { url, traceId: options.traceId };
  if (options.service === undefined)
    throw new Error(
      '--jaeger needs --trace-id <id>, or --service <name> (with --since and --limit).',
    );
  const now = options.now ?? Date.now();
  return {
    url,
    service: options.service,
    startMs: now - durationMs(options.since ?? '1h', '--since'),
    endMs: now,
    ...(options.limit === undefined ? {} : { limit: options.limit }),
  };
}

/** With `--store`: the file's evaluation events kept as an experiment of the runs they judge. */
async function experimentLines(
  options: ImportCommandOptions,
  events: readonly TraceEvent[],
  evaluations: readonly Evaluation[],
): Promise<string[]> {
  if (options.store === undefined) return [];
  if (options.file === undefined)
    return ['--store reads evaluation events from an OTLP JSON file; Jaeger keeps no log records.'];
  if (evaluations.length === 0)
    return [
      `no evaluation events (gen_ai.evaluation.result) in ${options.file}: no experiment kept`,
    ];
  const { importExperiment } = await loadOptional(
    'import --store',
    () => import('@agent-trace/evals/experiments'),
  );
  const kept = importExperiment(events, evaluations, {
    root: options.store,
    eval: options.eval ?? 'imported',
  });
  return [
    `kept ${kept.scores} score${kept.scores === 1 ? '' : 's'} of ${kept.cases} run${kept.cases === 1 ? '' : 's'} as experiment ${kept.id} of '${options.eval ?? 'imported'}' in ${options.store} (agent-trace eval view --store ${options.store})`,
    ...(kept.unmatched === 0
      ? []
      : [
          `${kept.unmatched} evaluation${kept.unmatched === 1 ? '' : 's'} judge a span in none of the runs read: left out`,
        ]),
  ];
}
