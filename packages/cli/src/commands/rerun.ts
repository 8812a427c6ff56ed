import { writeFile } from 'node:fs/promises';
import { formatDivergence, isBridgedAgent, rerunTrace, type RerunReport } from '@agent-trace/trace';
import { rerunView, viewerHtml } from '@agent-trace/viewer';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { loadAgent } from './load-agent.js';
import { loadTrace } from './trace-input.js';
import { defined } from '@agent-trace/core/internal';

/** Options of {@link rerunCommand}. */
export interface RerunOptions {
  readonly agentModule: string;
  readonly liveTools: boolean;
  readonly json: boolean;
  readonly style: Style;
  /** Also write the comparison as a viewer page (recording and rerun side by side) to this file. */
  readonly html?: string;
}

/**
 * `agent-trace rerun <trace> --agent <module>`: runs the module's agent again against the recorded
 * trace (models answer from the recording, tools too unless live) and reports the first
 * divergence, then every difference. Exit 0 when the
 * behaviour is the same, 1 when it diverged, 2 when the trace or the module cannot be loaded.
 */
export async function rerunCommand(file: string, options: RerunOptions): Promise<CommandResult> {
  const loaded = await loadTrace(file);
  if (!loaded.ok) return loaded.result;
  const module = await loadAgent(options.agentModule, {
    workflows: true,
    plans: true,
    bridged: true,
  });
  if (!module.ok) return { exitCode: exitCodes.unreadable, stdout: '', stderr: module.message };
  const target = module.agent;
  let report: RerunReport<unknown>;
  try {
    report = isBridgedAgent(target)
      ? await target.rerun(loaded.events, { liveTools: options.liveTools })
      : await rerunTrace(loaded.events, target, { liveTools: options.liveTools });
  } catch (error) {
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `Cannot rerun ${file}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (options.html !== undefined) {
    try {
      await writeFile(options.html, viewerHtml(rerunView(report, file)));
    } catch (error) {
      return {
        exitCode: exitCodes.unreadable,
        stdout: '',
        stderr: `Cannot write the page to '${options.html}': ${error instanceof Error ? error.message : String(error)}. Choose another place with --html.`,
      };
    }
  }
  const result = describeReport(report, file, options);
  return options.html === undefined || options.json
    ? { ...result, stderr: loaded.warnings }
    : { ...result, stdout: `${result.stdout}\nwrote ${options.html}`, stderr: loaded.warnings };
}

/** How the rerun stopped, from its trace's seal (whatever kind of agent ran). */
function stopOf(report: RerunReport<unknown>): string {
  const seal = report.rerun.findLast(event => event.event === 'run_end');
  return seal?.event === 'run_end' ? seal.stop_reason : 'not sealed';
}

function describeReport(
  report: RerunReport<unknown>,
  file: string,
  options: RerunOptions,
): Omit<CommandResult, 'stderr'> {
  const exitCode = report.same ? exitCodes.ok : exitCodes.failed;
  if (options.json) {
    const { recorded, rerun } = report;
    return {
      exitCode,
      stdout: JSON.stringify(
        {
          file,
          ...defined('html', options.html),
          agentModule: options.agentModule,
          same: report.same,
          firstDivergence: report.firstDivergence ?? null,
          differences: report.differences,
          recordedEvents: recorded.length,
          rerunEvents: rerun.length,
          stopReason: stopOf(report),
        },
        null,
        2,
      ),
    };
  }
  const { style } = options;
  const header = `Reran ${file} (${report.recorded.length} events) against ${options.agentModule}${options.liveTools ? ' with live tools' : ''}`;
  if (report.same) {
    return {
      exitCode,
      stdout: `${header}\n${style.green('✓')} same behaviour: no divergence (${report.rerun.length} events, stop: ${stopOf(report)})`,
    };
  }
  const first = report.firstDivergence;
  const lines = [
    header,
    `${style.red('✗')} diverged at ${first === undefined ? '?' : formatDivergence(first)}`,
    '',
    `${report.differences.length} difference${report.differences.length === 1 ? '' : 's'} in all:`,
    ...report.differences
      .slice(0, 50)
      .map(
        (difference, index) =>
          `${index + 1}. ${formatDivergence(difference).replace(/\n/g, '\n   ')}`,
      ),
  ];
  if (report.differences.length > 50)
    lines.push(`… and ${report.differences.length - 50} more (use --json for all)`);
  return { exitCode, stdout: lines.join('\n') };
}
