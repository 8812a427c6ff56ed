import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { loadTrace } from './load-trace.js';
import { traceStats, type UsageFigures } from './trace-stats.js';

/** Options of {@link statsCommand}. */
export interface StatsCommandOptions {
  readonly json: boolean;
  readonly style: Style;
}

function table(
  title: string,
  figures: Record<string, UsageFigures>,
  withTokens: boolean,
): string[] {
  const header = [
    '',
    'calls',
    'errors',
    'retries',
    'p50 ms',
    'p95 ms',
    ...(withTokens ? ['tok in', 'tok out'] : []),
  ];
  const rows = Object.entries(figures).map(([name, value]) => [
    name,
    String(value.calls),
    String(value.errors),
    String(value.retries),
    String(Math.round(value.p50Ms)),
    String(Math.round(value.p95Ms)),
    ...(withTokens ? [String(value.tokPrompt), String(value.tokCompletion)] : []),
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

/** `agent-trace stats <trace>`: per agent, tool and model: calls, errors, retries, p50/p95 ms, tokens; the stop reason. */
export async function statsCommand(
  file: string,
  options: StatsCommandOptions,
): Promise<CommandResult> {
  const loaded = await loadTrace(file);
  if (!loaded.ok) return { exitCode: exitCodes.unreadable, stdout: '', stderr: loaded.message };
  const stats = traceStats(loaded.events);
  if (options.json)
    return {
      exitCode: exitCodes.ok,
      stdout: JSON.stringify({ file, runs: stats }, null, 2),
      stderr: '',
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
    stderr: '',
  };
}
