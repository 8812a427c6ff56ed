import { formatUsd } from '@agent-trace/core/cost';
import type { Style } from '../render/style.js';
import { renderTable } from '../render/table.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { TraceInput, unreadableTrace } from './trace-input.js';
import { expandTraceFiles } from './trace-files.js';
import {
  TotalStatsCollector,
  TraceStatsCollector,
  traceStatsJson,
  type TraceStats,
  type UsageFigures,
} from './trace-stats.js';

/** Options of {@link statsCommand}. */
export interface StatsCommandOptions {
  readonly json: boolean;
  readonly style: Style;
  /** Writes a piece of the output (a run's figures); the command waits when it returns a promise. */
  readonly write: (text: string) => unknown;
}

function table(
  title: string,
  figures: ReadonlyMap<string, UsageFigures>,
  withTokens: boolean,
): string[] {
  const header = [
    '',
    'calls',
    'errors',
    'retries',
    'p50 ms',
    'p95 ms',
    ...(withTokens ? ['tok in', 'tok out', 'cost'] : []),
  ];
  const rows = [...figures].map(([name, value]) => [
    name,
    String(value.calls),
    String(value.errors),
    String(value.retries),
    String(Math.round(value.p50Ms)),
    String(Math.round(value.p95Ms)),
    ...(withTokens
      ? [
          String(value.tokPrompt),
          String(value.tokCompletion),
          value.unpricedCalls > 0 && value.costUsd === 0
            ? 'unknown'
            : `${formatUsd(value.costUsd)}${value.unpricedCalls > 0 ? '+?' : ''}`,
        ]
      : []),
  ]);
  if (rows.length === 0) return [];
  const numbers = new Set(header.map((_, column) => column).filter(column => column > 0));
  return renderTable([title, ...header.slice(1)], rows, numbers);
}

/**
 * `agent-trace stats <trace>…`: per agent, tool and model: calls, errors, retries, p50/p95 ms,
 * tokens; the stop reason. A trace is aggregated as it is read, never held whole, and each run's
 * figures are written as soon as the run has ended (in the order the runs began), so a trace of
 * many runs takes the memory of the runs still open. Several traces (or a glob, `'traces/*.jsonl'`)
 * are read one after the other, each under its name, then totalled across all their runs.
 */
export async function statsCommand(
  patterns: string | readonly string[],
  options: StatsCommandOptions,
): Promise<CommandResult> {
  const files = await expandTraceFiles(typeof patterns === 'string' ? [patterns] : patterns);
  if (typeof files === 'string')
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: files };
  const several = files.length > 1;
  const totals = several ? new TotalStatsCollector() : undefined;
  const warnings: string[] = [];
  const stdout: string[] = [];
  if (several && options.json) await options.write('{\n"files": [');
  for (const [index, file] of files.entries()) {
    if (several && !options.json)
      await options.write(`${index > 0 ? '\n' : ''}${options.style.bold(`== ${file}`)}`);
    else if (several && index > 0) await options.write(',');
    const result = await fileStats(file, options, totals);
    if (result.exitCode !== exitCodes.ok) return result;
    if (result.stdout !== '') stdout.push(result.stdout);
    if (result.stderr !== '') warnings.push(result.stderr);
  }
  if (totals !== undefined) {
    const total = totals.result();
    await options.write(
      options.json
        ? `],\n"total": ${JSON.stringify(traceStatsJson(total), null, 2)}\n}`
        : `\n${runSection(total, options.style, `total: ${total.run.slice(1, -1)} in ${files.length} files`)}`,
    );
  }
  return { exitCode: exitCodes.ok, stdout: stdout.join('\n'), stderr: warnings.join('\n') };
}

/** One trace's figures, run by run (see {@link statsCommand}); every event told to `totals` too. */
async function fileStats(
  file: string,
  options: StatsCommandOptions,
  totals: TotalStatsCollector | undefined,
): Promise<CommandResult> {
  const input = new TraceInput(file);
  const collector = new TraceStatsCollector();
  let written = 0;
  const emit = async (runs: readonly TraceStats[]): Promise<void> => {
    for (const run of runs) {
      const text = options.json
        ? JSON.stringify(traceStatsJson(run), null, 2).replace(/^/gm, '    ')
        : runSection(run, options.style);
      // Each write ends its line: a comma (JSON) or a blank line (text) goes between runs.
      await options.write(`${written > 0 ? (options.json ? ',' : '\n') : ''}${text}`);
      written++;
    }
  };
  try {
    const events = input.events()[Symbol.asyncIterator]();
    // The first event is read before anything is written: an unreadable file writes no output.
    let next = await events.next();
    if (options.json) await options.write(`{\n  "file": ${JSON.stringify(file)},\n  "runs": [`);
    for (; next.done !== true; next = await events.next()) {
      collector.add(next.value);
      totals?.add(next.value);
      if (next.value.event === 'run_end') await emit(collector.ready());
    }
  } catch (error) {
    return unreadableTrace(error, file);
  }
  await emit(collector.finish());
  if (options.json) {
    await options.write(`  ],\n  "warnings": ${JSON.stringify(input.warnings)}\n}`);
    return { exitCode: exitCodes.ok, stdout: '', stderr: input.warningText };
  }
  return {
    exitCode: exitCodes.ok,
    stdout: written === 0 ? `${file}: no events.` : '',
    stderr: input.warningText,
  };
}

/**
 * One run's figures as text: its stop reason (or `title`), the agent, model and tool tables, its
 * export.
 */
function runSection(run: TraceStats, style: Style, title?: string): string {
  return [
    style.bold(title ?? `run ${run.run}  stop: ${run.stopReason ?? '(no run_end)'}`),
    ...table('agent', run.agents, true),
    '',
    ...table('model', run.models, true),
    '',
    ...table('tool', run.tools, false),
    ...(run.export === undefined ||
    run.export.failedSpans + run.export.droppedSpans + run.export.pendingSpans === 0
      ? []
      : [
          '',
          style.yellow(
            `export: ${run.export.failedSpans} spans failed, ${run.export.droppedSpans} dropped, ${run.export.pendingSpans} unconfirmed at the end (the JSONL trace is complete)`,
          ),
        ]),
  ].join('\n');
}
