import { plural } from '../render/plural.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  compareEvals,
  failedRunLines,
  comparisonJUnit,
  comparisonMarkdown,
  shortScore,
  signed,
  type ComparedEval,
  type EvalResult,
} from '@agent-trace/evals';
import {
  ExperimentStore,
  type ExperimentReader,
  type ExperimentSummary,
} from '@agent-trace/evals/experiments';
import { defined } from '@agent-trace/core/util';

import { exitCodes, type CommandResult } from './command-result.js';

/** What `agent-trace eval compare` takes besides its two sides. */
export interface EvalCompareOptions {
  readonly store: string;
  /** The branch whose last experiment is the default baseline. */
  readonly branch: string;
  /** Only this eval (by default every eval the store has). */
  readonly eval?: string;
  /** With it, exit 1 when a case dropped by more than this. */
  readonly failOnRegression?: number;
  readonly json: boolean;
  /** Where to write the comparison as JUnit XML. */
  readonly junit?: string;
  /** Where to write it as Markdown (e.g. `$GITHUB_STEP_SUMMARY`). */
  readonly markdown?: string;
}

/** One side of a comparison: an experiment of the store, or an eval result from a file. */
export interface Side {
  readonly name: string;
  readonly label?: string;
  readonly result: EvalResult;
  readonly experiment?: ExperimentSummary;
}

/**
 * Compares experiments: the two named (ids, prefixes of ids, or JSON files of an eval result), or
 * by default, for each eval, its newest experiment against the newest completed one on the
 * baseline branch before it. Prints per scorer the means and the difference with its 95%
 * interval, the regressed cases with why, the flaky ones; writes JUnit and Markdown when asked.
 */
export async function evalCompareCommand(
  baseline: string | undefined,
  candidate: string | undefined,
  options: EvalCompareOptions,
): Promise<CommandResult> {
  const store = new ExperimentStore({ root: options.store });
  let pairs: [Side, Side][];
  try {
    // One open of the index for every question the comparison asks.
    pairs = await store.reading(reader => pairsToCompare(reader, baseline, candidate, options));
  } catch (error) {
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: messageOf(error) };
  }
  const tolerance = options.failOnRegression ?? 0;
  const compared = pairs.map(([before, after]) => comparedEval(before, after, tolerance));
  if (options.junit !== undefined) writeFileSync(options.junit, comparisonJUnit(compared));
  if (options.markdown !== undefined) writeFileSync(options.markdown, comparisonMarkdown(compared));
  const passed = compared.every(each => each.comparison.passed);
  const stdout = options.json
    ? JSON.stringify(compared, null, 2)
    : compared.map(describeComparison).join('\n\n');
  return {
    exitCode: options.failOnRegression !== undefined && !passed ? exitCodes.failed : exitCodes.ok,
    stdout,
    stderr: '',
  };
}

async function pairsToCompare(
  store: ExperimentReader,
  baseline: string | undefined,
  candidate: string | undefined,
  options: EvalCompareOptions,
): Promise<[Side, Side][]> {
  if (baseline !== undefined && candidate !== undefined)
    return [[await sideOf(store, baseline), await sideOf(store, candidate)]];
  if (baseline !== undefined) {
    const before = await sideOf(store, baseline);
    const [newest] = (await store.list({ eval: before.result.name })).filter(
      each => each.id !== before.experiment?.id,
    );
    if (newest === undefined)
      throw new Error(
        `No experiment of eval '${before.result.name}' to compare with ${baseline}: run the eval, or name the candidate too.`,
      );
    return [[before, await sideOf(store, newest.id)]];
  }
  const newest = new Map<string, ExperimentSummary>();
  for (const each of await store.list(defined('eval', options.eval)))
    if (!newest.has(each.eval)) newest.set(each.eval, each);
  if (newest.size === 0)
    throw new Error(
      `No experiments in ${options.store}${options.eval === undefined ? '' : ` for eval '${options.eval}'`}: run agent-trace eval <file> first.`,
    );
  const pairs: [Side, Side][] = [];
  for (const latest of newest.values()) {
    const base = await store.baselineFor(latest, options.branch);
    if (base === undefined)
      throw new Error(
        `No baseline for eval '${latest.eval}': no completed experiment on branch '${options.branch}' before ${latest.id}. Run the eval on ${options.branch} first (in CI, set AGENT_TRACE_BRANCH on a detached checkout), pick another branch with --branch, or name both experiments.`,
      );
    pairs.push([await sideOf(store, base.id), await sideOf(store, latest.id)]);
  }
  return pairs;
}

/** An experiment of the store by id (or its start), or an eval result from a `.json` file. */
export async function sideOf(store: Pick<ExperimentReader, 'result'>, name: string): Promise<Side> {
  if (name.endsWith('.json') && existsSync(name)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(name, 'utf8'));
    } catch (error) {
      throw new Error(
        `Cannot read the eval result ${name}: ${messageOf(error)}. Give a file 'agent-trace eval --json' wrote, or an experiment id.`,
        { cause: error },
      );
    }
    // What `eval --json` prints: a list with a result per eval file.
    const results = Array.isArray(parsed) ? parsed : [parsed];
    if (results.length !== 1)
      throw new Error(
        `${name} holds ${results.length} eval results: compare one eval at a time (run agent-trace eval --json on one file).`,
      );
    return { name, result: results[0] as EvalResult };
  }
  const stored = await store.result(name);
  const { git } = stored.experiment;
  const label = [git.branch, git.commit?.slice(0, 7), git.dirty === true ? 'dirty' : undefined]
    .filter(part => part !== undefined)
    .join(' ');
  return {
    name: stored.experiment.id,
    result: stored,
    experiment: stored.experiment,
    ...(label === '' ? {} : { label }),
  };
}

function comparedEval(before: Side, after: Side, tolerance: number): ComparedEval {
  const notes: string[] = [];
  if (before.result.name !== after.result.name)
    notes.push(
      `These are experiments of two evals: '${before.result.name}' and '${after.result.name}'.`,
    );
  const [a, b] = [before.experiment, after.experiment];
  if (a !== undefined && b !== undefined && a.datasetHash !== b.datasetHash)
    notes.push('The datasets differ: only the cases both have are compared.');
  for (const side of [before, after])
    if (side.experiment !== undefined && side.experiment.status !== 'completed')
      notes.push(
        `${side.name} is ${side.experiment.status}: it has ${plural(side.experiment.runs, 'run')}.`,
      );
  return {
    eval: after.result.name,
    baseline: before.name,
    candidate: after.name,
    ...defined('baselineLabel', before.label),
    ...defined('candidateLabel', after.label),
    comparison: compareEvals(before.result, after.result, { tolerance }),
    notes,
  };
}

function describeComparison(compared: ComparedEval): string {
  const { comparison } = compared;
  const side = (name: string, label: string | undefined) =>
    label === undefined ? name : `${name} (${label})`;
  const lines = [
    `eval ${compared.eval}: ${side(compared.baseline, compared.baselineLabel)} → ${side(compared.candidate, compared.candidateLabel)}`,
    ...(compared.notes ?? []).map(note => `  note: ${note}`),
  ];
  for (const each of comparison.scorers) {
    const [low, high] = each.interval;
    lines.push(
      `${each.scorer}: ${each.baseline.toFixed(3)} → ${each.candidate.toFixed(3)} (${signed(each.difference)}, 95% ${signed(low)} to ${signed(high)})`,
    );
    if (each.passAtK !== undefined)
      lines.push(
        `  pass@k: ${each.passAtK.baseline.toFixed(3)} → ${each.passAtK.candidate.toFixed(3)}`,
      );
    for (const change of each.regressed)
      lines.push(
        `  regressed ${change.id}: ${shortScore(change.baseline)} → ${shortScore(change.candidate)} (${change.reason})`,
      );
    for (const change of each.improved)
      lines.push(
        `  improved ${change.id}: ${shortScore(change.baseline)} → ${shortScore(change.candidate)}`,
      );
  }
  for (const which of ['candidate', 'baseline'] as const) {
    const failed = comparison.failed[which];
    if (failed.length === 0) continue;
    lines.push(
      `failed in the ${which}: ${plural(failed.length, 'run')} whose task threw${which === 'candidate' ? ' (never a pass)' : ' (its scores say nothing)'}`,
      ...failedRunLines(failed),
    );
  }
  for (const flaky of comparison.flaky)
    lines.push(`flaky ${flaky.id} (${flaky.scorer}): trials scored ${flaky.scores.join(', ')}`);
  if (comparison.unpaired.length > 0)
    lines.push(`only in one experiment: ${comparison.unpaired.join(', ')}`);
  return lines.join('\n');
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
