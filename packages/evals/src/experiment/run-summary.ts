import type { EvalResult } from '../run-eval.js';
import type { ExperimentSummary } from './experiment-store.js';
import type { ExperimentIdentity } from './journal.js';

/**
 * The summary of an experiment this process alone wrote, from its result in memory: what the
 * store would list for it once its journal is read, without opening the store (its index catches
 * up on the next read). Its means are the result's: over every run, trials included.
 */
export function summaryOfRun(
  identity: ExperimentIdentity,
  result: EvalResult,
  folder: string,
): ExperimentSummary {
  const { cases } = result;
  const sum = (value: (each: (typeof cases)[number]) => number) =>
    cases.reduce((total, each) => total + value(each), 0);
  const models = new Set(cases.flatMap(each => each.usage.models));
  return {
    id: identity.id,
    eval: identity.eval,
    startedAt: identity.startedAt,
    status: result.interrupted === true ? 'interrupted' : 'completed',
    git: identity.git,
    datasetHash: identity.datasetHash,
    configHash: identity.configHash,
    scorers: identity.scorers,
    datasetCases: identity.cases,
    runs: cases.length,
    failed: cases.filter(each => each.error !== undefined).length,
    means: result.means,
    costUsd: sum(each => each.usage.costUsd),
    unpricedCalls: sum(each => each.usage.unpricedCalls),
    tokensIn: sum(each => each.usage.tokensIn),
    tokensOut: sum(each => each.usage.tokensOut),
    // In name order, as the store lists them.
    models: [...models].sort(),
    shards: [],
    folder,
  };
}
