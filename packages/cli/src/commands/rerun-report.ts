import { plural } from '../render/plural.js';
import { formatDivergence, type RerunReport } from '@agent-trace/trace';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';

/** One recorded run and what rerunning it found. */
export interface RunRerun {
  readonly run: string;
  readonly report: RerunReport<unknown>;
}

/** What the report needs of the command's options. */
interface ReportOptions {
  readonly agentModule: string;
  readonly liveTools: boolean;
  readonly json: boolean;
  readonly style: Style;
  readonly html?: string;
  /** The simulated users' runs left out (their id → the name their model ran as). */
  readonly users?: ReadonlyMap<string, string>;
}

/**
 * The line saying which simulated users' runs were replayed, not rerun; none when there were none.
 */
function usersLine({ users }: ReportOptions): string[] {
  if (users === undefined || users.size === 0) return [];
  const names = [...new Set(users.values())].map(name => `'${name}'`).join(', ');
  return [
    `(${plural(users.size, 'run')} of the simulated user ${names} replayed, not rerun: what the person said)`,
  ];
}

/** Which turn of which conversation a recorded run was, as a run's line says it; '' for none. */
function turnOf(report: RerunReport<unknown>): string {
  const start = report.recorded.find(event => event.event === 'run_start');
  const turn = start?.event === 'run_start' ? start.conversation : undefined;
  return turn === undefined ? '' : `, turn ${turn.turn} of conversation '${turn.id}'`;
}

/** How the rerun stopped, from its trace's seal (whatever kind of agent ran). */
function stopOf(report: RerunReport<unknown>): string {
  const seal = report.rerun.findLast(event => event.event === 'run_end');
  return seal?.event === 'run_end' ? seal.stop_reason : 'not sealed';
}

/**
 * The reruns of a trace's runs, for people (a line a run, each divergence explained, a total when
 * there are several) or as JSON. Exit 0 when every run is the same, else 1.
 */
export function describeReruns(
  reruns: readonly RunRerun[],
  file: string,
  options: ReportOptions,
): Omit<CommandResult, 'stderr'> {
  const same = reruns.every(each => each.report.same);
  const exitCode = same ? exitCodes.ok : exitCodes.failed;
  if (options.json)
    return { exitCode, stdout: JSON.stringify(jsonReport(reruns, file, options), null, 2) };
  if (reruns.length === 1 && reruns[0] !== undefined)
    return {
      exitCode,
      stdout: [...describeOne(reruns[0].report, file, options), ...usersLine(options)].join('\n'),
    };
  const lines = [
    `Reran ${file} (${plural(reruns.length, 'run')}) against ${options.agentModule}${options.liveTools ? ' with live tools' : ''}`,
    ...usersLine(options),
  ];
  reruns.forEach(({ run, report }, index) => {
    lines.push(
      '',
      `run ${index + 1} of ${reruns.length}: ${run}${turnOf(report)} (${report.recorded.length} events)`,
    );
    lines.push(...describeOne(report, undefined, options).map(line => `  ${line}`));
  });
  const diverged = reruns.filter(each => !each.report.same).length;
  lines.push(
    '',
    diverged === 0
      ? `${options.style.green('✓')} ${reruns.length === 1 ? 'the run' : `all ${reruns.length} runs`}: same behaviour`
      : `${options.style.red('✗')} ${diverged} of ${plural(reruns.length, 'run')} diverged, ${reruns.length - diverged} same`,
  );
  return { exitCode, stdout: lines.join('\n') };
}

function jsonReport(reruns: readonly RunRerun[], file: string, options: ReportOptions): unknown {
  const runs = reruns.map(({ run, report }) => ({
    run,
    same: report.same,
    firstDivergence: report.firstDivergence ?? null,
    differences: report.differences,
    recordedEvents: report.recorded.length,
    rerunEvents: report.rerun.length,
    stopReason: stopOf(report),
  }));
  const head = {
    file,
    ...(options.html === undefined ? {} : { html: options.html }),
    agentModule: options.agentModule,
    same: runs.every(run => run.same),
    ...(options.users === undefined || options.users.size === 0
      ? {}
      : { userRuns: [...options.users].map(([run, agent]) => ({ run, agent })) }),
  };
  // One run: its report's fields at the top too, as before several runs were rerun.
  return runs.length === 1 ? { ...head, ...runs[0], runs } : { ...head, runs };
}

/** One run's rerun: the header (when `file` is given), then same, or each divergence. */
function describeOne(
  report: RerunReport<unknown>,
  file: string | undefined,
  options: ReportOptions,
): string[] {
  const { style } = options;
  const header =
    file === undefined
      ? []
      : [
          `Reran ${file} (${report.recorded.length} events) against ${options.agentModule}${options.liveTools ? ' with live tools' : ''}`,
        ];
  if (report.same)
    return [
      ...header,
      `${style.green('✓')} same behaviour: no divergence (${report.rerun.length} events, stop: ${stopOf(report)})`,
    ];
  const first = report.firstDivergence;
  const lines = [
    ...header,
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
  return lines;
}
