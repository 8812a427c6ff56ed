import { join } from 'node:path';
import { ExperimentStore } from '@agent-trace/evals/experiments';
import { experimentView, type ExperimentSide } from '@agent-trace/viewer';
import { defined } from '@agent-trace/core/util';
import { exitCodes, type CommandResult } from './command-result.js';
import { sideOf, type Side } from './eval-compare.js';
import { writePage } from './view.js';

/** What `agent-trace eval view` takes besides the candidate. */
export interface EvalViewOptions {
  readonly store: string;
  /** The baseline (by default the newest completed experiment on `branch` before the candidate). */
  readonly baseline?: string;
  readonly branch: string;
  /** The eval whose newest experiment is the default candidate. */
  readonly eval?: string;
  /** Where the page goes. @defaultValue `experiment.html` in the candidate's folder */
  readonly out?: string;
  readonly open: boolean;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * `agent-trace eval view [candidate]`: one self-contained HTML page of an experiment (cases ×
 * scorers, against its baseline), each case opening its trace, and the baseline's trace of it
 * beside its own in the diff view. Exit 0 written, 2 when there is nothing to show.
 */
export async function evalViewCommand(
  candidate: string | undefined,
  options: EvalViewOptions,
): Promise<CommandResult> {
  const store = new ExperimentStore({ root: options.store });
  let after: Side;
  let before: Side | undefined;
  try {
    // One open of the index for the experiment, its baseline and both sides' cases.
    [after, before] = await store.reading(async reader => {
      const id =
        candidate ?? (await reader.list({ ...defined('eval', options.eval), limit: 1 }))[0]?.id;
      if (id === undefined)
        throw new Error(`No experiments in ${options.store}: run agent-trace eval <file> first.`);
      const shown = await sideOf(reader, id);
      const baseline =
        options.baseline ??
        (shown.experiment === undefined
          ? undefined
          : (await reader.baselineFor(shown.experiment, options.branch))?.id);
      return [shown, baseline === undefined ? undefined : await sideOf(reader, baseline)] as const;
    });
  } catch (error) {
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: error instanceof Error ? error.message : String(error),
    };
  }
  const data = await experimentView(
    pageSide(after),
    before === undefined ? undefined : pageSide(before),
  );
  const out =
    options.out ??
    (after.experiment === undefined
      ? 'experiment.html'
      : join(after.experiment.folder, 'experiment.html'));
  return writePage(
    data,
    out,
    options,
    () =>
      `The experiment's traces make a page larger than one page can hold. Look at its cases' traces one by one: agent-trace view ${after.experiment?.folder ?? '.'}/traces/<eval>/<case>.t1.jsonl`,
  );
}

function pageSide(side: Side): ExperimentSide {
  return {
    result: side.result,
    id: side.name,
    ...defined('label', side.label),
    ...defined('status', side.experiment?.status),
    ...defined('costUsd', side.experiment?.costUsd),
    ...defined('unpricedCalls', side.experiment?.unpricedCalls),
  };
}
