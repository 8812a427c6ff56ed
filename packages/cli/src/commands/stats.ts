import { formatUsd } from '@agent-trace/core';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { TraceInput, unreadableTrace } from './trace-input.js';
import { TraceStatsCollector, traceStatsJson, type UsageFigures } from './trace-stats.js';

/** Options of {@link statsCommand}. */
export interface StatsCommandOptions {
  readonly json: boolean;
  readonly style: Style;
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
  const all = [[title, ...header.slice(1)], ...rows];
  const widths = all[0]!.map((_, column) => Math.max(...all.map(row => row[column]!.length)));
  return all.map(row =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join('  '),
  );
}

/**
 * `agent-trace stats <trace>`: per agent, tool and model: calls, errors, retries, p50/p95 ms,
 * tokens; the stop reason. The trace is aggregated as it is read, never held whole.
 */
export async function statsCommand(
  file: string,
  options: StatsCommandOptions,
): Promise<CommandResult> {
  const input = new TraceInput(file);
  const collector = new TraceStatsCollector();
  try {
    for await (const event of input.events()) collector.add(event);
  } catch (error) {
    return unreadableTrace(error, file);
  }
  const stats = collector.result();
  if (options.json)
    return {
      exitCode: exitCodes.ok,
      stdout: JSON.stringify(
        { file, runs: stats.map(traceStatsJson), warnings: input.warnings },
        null,
        2,
      ),
      stderr: input.warningText,
    };
  const sections = stats.map(run =>
    [
      options.style.bold(`run ${run.run}  stop: ${run.stopReason ?? '(no run_end)'}`),
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
            options.style.yellow(
              `export: ${run.export.failedSpans} spans failed, ${run.export.droppedSpans} dropped, ${run.export.pendingSpans} unconfirmed at the end (the JSONL trace is complete)`,
            ),
          ]),
    ].join('\n'),
  );
  return {
    exitCode: exitCodes.ok,
    stdout: sections.join('\n\n') || `${file}: no events.`,
    stderr: input.warningText,
  };
}
