import { AgentTraceError } from '@agent-trace/core';
import { validateTraceFile, type TraceValidationReport } from '@agent-trace/trace';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';

/** Options of {@link validateCommand}. */
export interface ValidateCommandOptions {
  /** Print the report as JSON. @defaultValue false */
  readonly json?: boolean;
  readonly style: Style;
}

/**
 * `agent-trace validate <trace.jsonl>`: checks the schema of every line, seq gaps and duplicates,
 * unpaired starts and ends, a torn tail and missing `run_end` seals. Exit 0 valid, 1 invalid,
 * 2 unreadable.
 */
export async function validateCommand(
  file: string,
  options: ValidateCommandOptions,
): Promise<CommandResult> {
  let report: TraceValidationReport;
  try {
    report = await validateTraceFile(file);
  } catch (error) {
    if (!AgentTraceError.isInstance(error)) throw error;
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: error.message };
  }
  const exitCode = report.valid ? exitCodes.ok : exitCodes.failed;
  if (options.json === true) {
    return { exitCode, stdout: JSON.stringify({ file, ...report }, null, 2), stderr: '' };
  }
  const { style } = options;
  const runs = `${report.runs.length} run${report.runs.length === 1 ? '' : 's'}, ${report.events} event${report.events === 1 ? '' : 's'}`;
  const warnings = report.warnings.map(
    warning => `  ${style.yellow('warning')}: ${warning.message}`,
  );
  if (report.valid) {
    return {
      exitCode,
      stdout: [
        `${style.green('✓')} ${file}: valid — ${runs}${stopSummary(report)}`,
        ...warnings,
      ].join('\n'),
      stderr: '',
    };
  }
  const lines = [
    `${style.red('✗')} ${file}: ${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} — ${runs}`,
    ...report.problems.map(problem => {
      const where = problem.line === undefined ? '' : `line ${problem.line}: `;
      return `  ${where}${style.bold(problem.kind)} — ${problem.message}`;
    }),
    ...warnings,
  ];
  return { exitCode, stdout: lines.join('\n'), stderr: '' };
}

/**
 * How the runs stopped: each run with its id when there are a few, else a count per stop reason
 * (a file of hundreds of runs gets one short line).
 */
function stopSummary(report: TraceValidationReport): string {
  if (report.runs.length === 0) return '';
  if (report.runs.length <= 3)
    return ` (${report.runs.map(run => `${run.run}: ${run.stopReason ?? '?'}`).join(', ')})`;
  const counts = new Map<string, number>();
  for (const run of report.runs) {
    const reason = run.stopReason ?? 'unsealed';
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  const parts = [...counts].sort((left, right) => right[1] - left[1]);
  return ` (${parts.map(([reason, count]) => `${reason} ${count}`).join(', ')})`;
}
