import { writeFile } from 'node:fs/promises';
import { model, type AnyAgent } from '@agent-trace/core';
import { forkTrace, formatDivergence, type ForkReport, type PlanTarget } from '@agent-trace/trace';
import { renderRunTree } from '../render/render-trace.js';
import { buildRunTrees } from '@agent-trace/trace/model';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { loadAgent } from './load-agent.js';
import { selectRuns } from './select-runs.js';
import { loadTrace } from './trace-input.js';
import { defined } from '@agent-trace/core/util';
import type { ApprovalDecision } from '@agent-trace/core/approval';

export { forkDecisions } from './fork-decisions.js';
export { forkTurnCommand } from './fork-turn.js';

/** Options of {@link forkCommand}. */
export interface ForkCommandOptions {
  readonly agentModule: string;
  /** Model answers of the recording reproduced before the fork. */
  readonly afterStep: number;
  /** Who answers from the fork on, as a model string (`openai:gpt-4o`). */
  readonly model: string;
  /** The model's endpoint (for `openai-compatible`, or a proxy). */
  readonly baseUrl?: string;
  /** Writes the fork's trace (JSONL) here. */
  readonly out?: string;
  readonly liveTools: boolean;
  readonly style: Style;
  /** Decisions for the calls that wait for approval in the fork. */
  readonly decisions?: readonly ApprovalDecision[];
  /** The run of the file to fork: its id, or its number from 1. @defaultValue the first */
  readonly run?: string;
}

/**
 * `agent-trace fork <trace> --agent <module> --after-step K --model <provider:name>`: time travel.
 * Rebuilds the recorded run up to model answer K (answers and tools from the recording), then
 * lets the named model answer from there. Prints the fork as `replay` does. Exit 0 when steps
 * 1…K were reproduced, 1 when today's code already did something else before the fork, 2 when
 * the trace, the module or the model cannot be loaded.
 */
export async function forkCommand(
  file: string,
  options: ForkCommandOptions,
): Promise<CommandResult> {
  const loaded = await loadTrace(file);
  if (!loaded.ok) return loaded.result;
  // Agents and planned runs only: workflows are not accepted here, so none comes back.
  const module = await loadAgent(options.agentModule, { plans: true });
  if (!module.ok) return { exitCode: exitCodes.unreadable, stdout: '', stderr: module.message };
  const runs = selectRuns(loaded.events, options.run === undefined ? [] : [options.run]);
  if (typeof runs === 'string') return { exitCode: exitCodes.unreadable, stdout: '', stderr: runs };
  let report: ForkReport<{ readonly stopReason: string }>;
  try {
    const next = model(options.model, defined('baseURL', options.baseUrl));
    report = await forkTrace(loaded.events, module.agent as AnyAgent | PlanTarget, {
      afterStep: options.afterStep,
      model: next,
      liveTools: options.liveTools,
      run: module.runOptions,
      ...defined('decisions', options.decisions),
      ...defined('runId', runs.runs[0]),
    });
    if (options.out !== undefined)
      await writeFile(
        options.out,
        report.events.map(event => `${JSON.stringify(event)}\n`).join(''),
      );
  } catch (error) {
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `Cannot fork ${file}: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    await module.release();
  }
  return {
    ...describeFork(report, file, options),
    stderr: [loaded.warnings, ...module.warnings].filter(line => line !== '').join('\n'),
  };
}

function describeFork(
  report: ForkReport<{ readonly stopReason: string }>,
  file: string,
  options: ForkCommandOptions,
): Omit<CommandResult, 'stderr'> {
  const { style } = options;
  const recordedRun = report.recorded[0]?.run ?? '?';
  const lines = [
    `Forked run ${recordedRun} of ${file} after step ${options.afterStep}; ${options.model} answers from there.`,
    report.reproduced
      ? `${style.green('✓')} steps 1–${options.afterStep} reproduced as recorded`
      : `${style.red('✗')} today's code did something else before the fork: ${report.firstDivergence === undefined ? '?' : formatDivergence(report.firstDivergence)}`,
    '',
    ...buildRunTrees(report.events).map(tree => renderRunTree(tree, { style })),
  ];
  if (options.out !== undefined) lines.push('', `wrote ${options.out}`);
  return {
    exitCode: report.reproduced ? exitCodes.ok : exitCodes.failed,
    stdout: lines.join('\n'),
  };
}
