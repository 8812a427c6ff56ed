import { model, type LanguageModel } from '@agent-trace/core';
import { defined } from '@agent-trace/core/util';
import { writeFileSync } from 'node:fs';
import {
  comparisonJUnit,
  comparisonMarkdown,
  regress,
  regressComparison,
  type RegressCase,
  type RegressResult,
  type Scorer,
  transcriptLines,
} from '@agent-trace/evals';
import { plural } from '../render/plural.js';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { loadEval } from './eval.js';
import { loadAgent } from './load-agent.js';

/** Exit code of a regress stopped by Ctrl-C (128 + SIGINT), as shells give it. */
const interruptedExit = 130;

/** Options of {@link regressCommand}. */
export interface RegressCommandOptions {
  readonly agentModule: string;
  readonly where?: string;
  readonly runs: readonly string[];
  readonly sample?: number;
  readonly seed?: number;
  readonly limit?: number;
  readonly shard?: { readonly index: number; readonly count: number };
  /** A model string (`openai:gpt-4o-mini`) that goes on from a divergence. */
  readonly continueWith?: string;
  /** A model string that plays the person of a diverged conversation after its continued turn. */
  readonly userModel?: string;
  /** An eval module whose scorers score each case. */
  readonly evalModule?: string;
  readonly maxCostUsd?: number;
  readonly concurrency?: number;
  /** Keep the regress as two experiments of the store under this root. */
  readonly store?: string;
  readonly failOnRegression: boolean;
  /** Exit 1 when any run diverged (continued or not). */
  readonly failOnDivergence?: boolean;
  /** Run the real tools instead of answering with the recorded results. */
  readonly liveTools?: boolean;
  /** Write the recorded runs against today's as JUnit (a failing test per worse case) here. */
  readonly junit?: string;
  /** Write the comparison as Markdown (a CI step summary, a pull-request comment) here. */
  readonly markdown?: string;
  readonly json: boolean;
  readonly style: Style;
  readonly signal?: AbortSignal;
}

/**
 * `agent-trace regress <library> --agent <module>`: the library's recorded runs, rerun against
 * today's code. Same runs pass with no model call; diverged ones are named with where and why, and
 * continued with `--continue-with` (or the module's `continueWith`), both scored. Exit 0; 1 with
 * `--fail-on-regression` when a case got worse, with `--fail-on-divergence` when a run diverged;
 * 2 when the module or eval cannot be read, a trace of the library cannot be read whole, or a run
 * could not be regressed (a corrupted recording never passes); 130 when stopped (what finished is
 * kept).
 */
export async function regressCommand(
  folder: string,
  options: RegressCommandOptions,
): Promise<CommandResult> {
  const module = await loadAgent(options.agentModule, {
    workflows: true,
    plans: true,
    bridged: true,
  });
  if (!module.ok) return unreadable(module.message);
  try {
    const scorers =
      options.evalModule === undefined ? undefined : await evalScorers(options.evalModule);
    if (typeof scorers === 'string') return unreadable(scorers);
    const continueWith: LanguageModel | undefined =
      options.continueWith === undefined ? module.continueWith : model(options.continueWith);
    const result = await regress({
      library: folder,
      agent: module.agent,
      run: module.runOptions,
      liveTools: options.liveTools === true,
      ...defined('where', options.where),
      ...(options.runs.length === 0 ? {} : { runs: options.runs }),
      ...(options.sample === undefined ? {} : { sample: options.sample, seed: options.seed ?? 1 }),
      ...defined('limit', options.limit),
      ...defined('shard', options.shard),
      ...defined('continueWith', continueWith),
      ...(options.userModel === undefined ? {} : { userModel: model(options.userModel) }),
      ...defined('scorers', scorers),
      ...defined('maxCostUsd', options.maxCostUsd),
      ...defined('concurrency', options.concurrency),
      ...(options.store === undefined ? {} : { store: { root: options.store } }),
      ...defined('signal', options.signal),
    });
    if (options.junit !== undefined || options.markdown !== undefined) {
      const compared = [regressComparison(result)];
      if (options.junit !== undefined) writeFileSync(options.junit, comparisonJUnit(compared));
      if (options.markdown !== undefined)
        writeFileSync(options.markdown, comparisonMarkdown(compared));
    }
    const exitCode = regressExit(result, options);
    const stdout = options.json
      ? JSON.stringify(result, null, 2)
      : [
          ...(options.liveTools === true
            ? [
                `with live tools: the real tools of ${options.agentModule} ran instead of the recorded results (their side effects happened again)`,
              ]
            : []),
          describe(result, options.style, options.store ?? ''),
        ].join('\n');
    const stderr = [...module.warnings, ...problems(result, options)].join('\n');
    return { exitCode, stdout, stderr };
  } catch (error) {
    return unreadable(
      `Cannot regress ${folder}: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    await module.release();
  }
}

/** The exit code: stopped, then what could not be read or regressed, then the gates asked for. */
function regressExit(result: RegressResult, options: RegressCommandOptions): number {
  if (result.interrupted) return interruptedExit;
  if (result.unreadable.length > 0 || result.counts.failed > 0) return exitCodes.unreadable;
  const diverged = result.counts.diverged + result.counts.continued;
  if (options.failOnDivergence === true && diverged > 0) return exitCodes.failed;
  if (options.failOnRegression && result.regressed.length > 0) return exitCodes.failed;
  return exitCodes.ok;
}

/** For stderr: what the library could not read, runs that failed, diverged runs nobody judged. */
function problems(result: RegressResult, options: RegressCommandOptions): string[] {
  const lines = result.unreadable.map(line => `error: ${line}`);
  if (lines.length > 0)
    lines.push(
      `error: ${plural(result.unreadable.length, 'trace file')} of the library could not be read whole: runs in ${result.unreadable.length === 1 ? 'it' : 'them'} may be missing from this regress, so it does not pass. Run 'agent-trace validate <file>' on ${result.unreadable.length === 1 ? 'it' : 'each'} for every problem.`,
    );
  if (result.counts.failed > 0)
    lines.push(
      `error: ${plural(result.counts.failed, 'run')} could not be regressed, so the regress does not pass:`,
      ...result.cases
        .filter(found => found.status === 'failed')
        .map(found => `  ${found.run}: ${found.divergence ?? 'failed'}`),
    );
  const unjudged = result.counts.diverged;
  if (options.failOnRegression && options.failOnDivergence !== true && unjudged > 0)
    lines.push(
      `warning: ${plural(unjudged, 'diverged run')} ${unjudged === 1 ? 'was' : 'were'} not judged: with no continuation model (--continue-with, or the module's continueWith) nothing is scored, so --fail-on-regression cannot fail on ${unjudged === 1 ? 'it' : 'them'}. Add --fail-on-divergence to fail on any divergence.`,
    );
  return lines;
}

const unreadable = (stderr: string): CommandResult => ({
  exitCode: exitCodes.unreadable,
  stdout: '',
  stderr,
});

/** The scorers of an eval module's default export (`defineEval({ …, scorers })`). */
async function evalScorers(file: string): Promise<readonly Scorer[] | string> {
  const loaded = await loadEval(file);
  if (typeof loaded === 'string') return loaded;
  if (loaded.scorers.length > 0) return loaded.scorers;
  return `Eval module '${file}' has no scorers. Give its defineEval({ name, data, task, scorers }) at least one.`;
}

/** The report: a line per case that did not rerun the same, then the totals. */
function describe(result: RegressResult, style: Style, store: string): string {
  const lines = result.cases
    .filter(found => found.status !== 'same')
    .map(found => caseLines(found, style));
  const { same, diverged, continued, failed } = result.counts;
  const ids = result.experiments;
  const kept =
    ids === undefined
      ? []
      : [
          `kept: experiments ${ids.recorded} (recorded) and ${ids.today} (today)`,
          `  agent-trace eval compare ${ids.recorded} ${ids.today} --store ${store}`,
          `  agent-trace eval view ${ids.today} --baseline ${ids.recorded} --store ${store}`,
        ];
  return [
    ...lines,
    `${plural(result.cases.length, 'run')}: ${same} same, ${diverged} diverged, ${continued} continued, ${failed} failed · ${result.improved.length} improved, ${result.regressed.length} regressed · ${result.modelCalls} model calls, $${result.costUsd.toFixed(4)}${result.interrupted ? ' · stopped early' : ''}`,
    ...(result.regressed.length === 0 ? [] : [`regressed: ${result.regressed.join(', ')}`]),
    ...kept,
  ].join('\n');
}

function caseLines(found: RegressCase, style: Style): string {
  const mark =
    found.verdict === 'regressed'
      ? style.red('✗')
      : found.verdict === 'improved'
        ? style.green('↑')
        : '•';
  const turn =
    found.turn === undefined
      ? ''
      : `, turn ${found.turn.turn} of conversation '${found.turn.conversation}'`;
  const head = `${mark} ${found.run}${turn} (${JSON.stringify(found.input)}): ${found.status}${found.status === 'continued' ? `, ${found.verdict}` : ''}`;
  return [`${head}\n  diverged at ${found.divergence ?? '?'}`, ...wentOnLines(found)].join('\n');
}

/** How a diverged conversation went on with a simulated user: a line, then its transcript. */
function wentOnLines({ conversation }: RegressCase): string[] {
  if (conversation === undefined) return [];
  const turns = `${conversation.turns} more turn${conversation.turns === 1 ? '' : 's'}`;
  return [
    `  the conversation went on ${turns} with a simulated user: ${conversation.stopReason.replaceAll('_', ' ')}`,
    ...transcriptLines(conversation.transcript).map(line => `    ${line}`),
  ];
}
