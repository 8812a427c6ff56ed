import { writeFile } from 'node:fs/promises';
import { type AnyAgent, type Message, type TraceEvent } from '@agent-trace/core';
import { recordedServerNotes, useRecordedServers } from '@agent-trace/core/mcp/recorded';
import type { Workflow } from '@agent-trace/core/workflow';
import {
  agentTurnOf,
  ConversationCarry,
  isBridgedAgent,
  recordedServers,
  rerunTrace,
  type BridgedAgent,
  type PlanTarget,
  type RerunReport,
  type RerunTraceOptions,
} from '@agent-trace/trace';
import type { Style } from '../render/style.js';
import { loadOptional } from '../program/optional-package.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { loadAgent } from './load-agent.js';
import { describeReruns, type RunRerun } from './rerun-report.js';
import { selectRuns } from './select-runs.js';
import { loadTrace } from './trace-input.js';

/** Options of {@link rerunCommand}. */
export interface RerunOptions {
  readonly agentModule: string;
  readonly liveTools: boolean;
  readonly json: boolean;
  readonly style: Style;
  /** Also write the comparison as a viewer page (recording and rerun side by side) to this file. */
  readonly html?: string;
  /** The runs to rerun, by id or by number (1 the file's first); every run when absent or empty. */
  readonly runs?: readonly string[];
}

/**
 * `agent-trace rerun <trace> --agent <module>`: runs the module's agent again against each
 * recorded run of the trace (or those `--run` names): models answer from the recording, tools
 * too unless live. Reports each run's first divergence, then every difference. Exit 0 when every
 * run's behaviour is the same, 1 when one diverged, 2 when the trace or the module cannot be
 * loaded. What the module opened is released after the report (its `dispose` export, MCP
 * connections it left open).
 */
export async function rerunCommand(file: string, options: RerunOptions): Promise<CommandResult> {
  const loaded = await loadTrace(file);
  if (!loaded.ok) return loaded.result;
  const selected = selectRuns(loaded.events, options.runs ?? []);
  if (typeof selected === 'string')
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: selected };
  const { runs, users } = selected;
  // A module that connects to its MCP servers as it loads finds a gone server in the recording.
  if (!options.liveTools) useRecordedServers(recordedServers(loaded.events));
  const module = await loadAgent(options.agentModule, {
    workflows: true,
    plans: true,
    bridged: true,
  });
  const notes = [...recordedServerNotes()];
  useRecordedServers(undefined);
  if (!module.ok) return { exitCode: exitCodes.unreadable, stdout: '', stderr: module.message };
  let reruns: RunRerun[];
  try {
    reruns = await rerunEach(loaded.events, runs, module.agent, {
      liveTools: options.liveTools,
      run: module.runOptions,
    });
  } catch (error) {
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `Cannot rerun ${file}: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    await module.release();
  }
  const stderr = [loaded.warnings, ...module.warnings, ...notes]
    .filter(line => line !== '')
    .join('\n');
  const page = await writePage(reruns, file, options.html);
  if (page !== undefined) return { exitCode: exitCodes.unreadable, stdout: '', stderr: page };
  const result = describeReruns(reruns, file, { ...options, users });
  return options.html === undefined || options.json
    ? { ...result, stderr }
    : { ...result, stdout: `${result.stdout}\nwrote ${options.html}`, stderr };
}

/**
 * Reruns each selected run of the trace in turn, against the same target. A turn of a
 * conversation whose previous turn was just rerun starts from what that rerun left, so a change
 * shows at the turn it first touches and in what follows from it.
 */
async function rerunEach(
  events: readonly TraceEvent[],
  runs: readonly string[],
  target: AnyAgent | Workflow | PlanTarget | BridgedAgent,
  options: { readonly liveTools: boolean; readonly run: RerunTraceOptions['run'] },
): Promise<RunRerun[]> {
  const { liveTools } = options;
  const reruns: RunRerun[] = [];
  const carry = new ConversationCarry();
  const turns = new Map(
    events
      .map(event => [event.run, agentTurnOf(event)] as const)
      .filter(([, turn]) => turn !== undefined),
  );
  for (const runId of runs) {
    const turn = turns.get(runId);
    const run = carry.runOptions(turn, options.run);
    const report: RerunReport<unknown> = isBridgedAgent(target)
      ? await target.rerun(events, { liveTools, runId })
      : await rerunTrace(events, target, {
          liveTools,
          runId,
          ...(run === undefined ? {} : { run }),
        });
    carry.took(turn, (report.result as { messages?: readonly Message[] }).messages);
    reruns.push({ run: runId, report });
  }
  return reruns;
}

/**
 * Writes the viewer page of the comparison (the first run that diverged, else the first run) to
 * `html`; what went wrong, if anything.
 */
async function writePage(
  reruns: readonly RunRerun[],
  file: string,
  html: string | undefined,
): Promise<string | undefined> {
  const shown = reruns.find(each => !each.report.same) ?? reruns[0];
  if (html === undefined || shown === undefined) return undefined;
  try {
    // The viewer, an optional package of the CLI, is loaded only for a page.
    const { rerunView, viewerHtml } = await loadOptional(
      'rerun --html',
      () => import('@agent-trace/viewer'),
    );
    await writeFile(html, viewerHtml(rerunView(shown.report, file)));
    return undefined;
  } catch (error) {
    return `Cannot write the page to '${html}': ${error instanceof Error ? error.message : String(error)}. Choose another place with --html.`;
  }
}
