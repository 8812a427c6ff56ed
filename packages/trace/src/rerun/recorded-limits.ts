import type { RunOptions, TraceEvent } from '@agent-trace/core';
import { costBudget, type CostBudget } from '@agent-trace/core/cost';
import { isKeptRead } from './recorded-kept-state.js';

/**
 * The cost limits of a recorded run's rerun. A run stopped by `maxCostUsd` reruns under the same
 * limit when the caller sets none. A shared budget (`costBudget`) is never the caller's object,
 * which other runs (a regress of many) would spend: it is a budget of that name and limit (the
 * caller's, or the recorded one), spent as much as the runs before this one had when the recording
 * says so (it stopped the run), else nothing; a run that read the budget as kept state (what other
 * runs had spent, at each decision on it) reruns from those reads instead. Prices come from the rerun's options (`prices`) or
 * the known ones, as they did.
 */
export function recordedLimits(
  recorded: readonly TraceEvent[],
  given: Pick<RunOptions, 'maxCostUsd' | 'budget'> | undefined,
): Pick<RunOptions, 'maxCostUsd' | 'budget'> {
  const end = recorded.findLast(event => event.event === 'run_end');
  const limit =
    end?.event === 'run_end' && end.stop_reason === 'budget_exceeded' ? end.limit : undefined;
  const fresh = given?.budget === undefined ? {} : { budget: startedAt(given.budget, 0) };
  if (limit === undefined) return fresh;
  if (limit.name === 'maxCostUsd')
    return given?.maxCostUsd === undefined && given?.budget === undefined
      ? { maxCostUsd: limit.value }
      : fresh;
  if (
    given?.maxCostUsd !== undefined ||
    (given?.budget !== undefined && given.budget.name !== limit.name)
  )
    return fresh;
  // The run read the budget as kept state: its reads say what other runs had spent, read by read.
  if (recorded.some(event => isKeptRead(event) && event.feature === 'cost'))
    return { budget: startedAt(given?.budget ?? { name: limit.name, limitUsd: limit.value }, 0) };
  const spentByRun = end?.event === 'run_end' ? (end.cost?.usd ?? 0) : 0;
  // Stopped after an answer (its tools not run): the budget was past its limit then, which the
  // recorded spend says unless it rounds to the limit itself (then a hair more puts it past; more
  // than that would refuse a call whose estimate just fit). Stopped before a call (not made): the
  // budget was within it, and the call's estimate went past.
  const spentAtStop = limit.spent ?? limit.value;
  const pastLimit = stoppedAfterAnswer(recorded) && spentAtStop <= limit.value ? 1e-9 : 0;
  // What the runs before it had spent: recorded with the stop, or (older traces) as much as puts
  // the budget where it stopped.
  const before = spentAtStop - spentByRun;
  const budget = given?.budget ?? { name: limit.name, limitUsd: limit.value };
  return { budget: startedAt(budget, Math.max(0, before + pastLimit)) };
}

/** A budget of `budget`'s name and limit, `spentUsd` already spent. */
function startedAt(budget: Pick<CostBudget, 'name' | 'limitUsd'>, spentUsd: number): CostBudget {
  const started = costBudget({ name: budget.name, limitUsd: budget.limitUsd });
  if (spentUsd > 0) started.spend(spentUsd);
  return started;
}

/** True when the run's last answer asked for tools and none of them ran. */
function stoppedAfterAnswer(recorded: readonly TraceEvent[]): boolean {
  const last = recorded.findLastIndex(
    event => event.event === 'llm_end' && event.error === undefined,
  );
  const answer = recorded[last];
  if (answer?.event !== 'llm_end' || (answer.tool_calls ?? []).length === 0) return false;
  return !recorded.slice(last + 1).some(event => event.event === 'tool_start');
}
