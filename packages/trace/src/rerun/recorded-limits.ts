import type { RunOptions, TraceEvent } from '@agent-trace/core';
import { costBudget } from '@agent-trace/core/cost';

/**
 * The cost limit that stopped a recorded run, as run options for its rerun, when the caller set
 * none: a run stopped by `maxCostUsd` reruns under the same limit; one stopped by a shared budget
 * (`costBudget`) under a budget of that name and limit, already spent as much as the recording
 * implies (so it stops where it stopped: past the limit after the answer that crossed it, or at
 * the limit for a call whose estimate would cross it), since the runs before it are not rerun. Prices come from the rerun's options (`prices`) or the known ones, as they did.
 */
export function recordedLimits(
  recorded: readonly TraceEvent[],
  given: Pick<RunOptions, 'maxCostUsd' | 'budget'> | undefined,
): Pick<RunOptions, 'maxCostUsd' | 'budget'> {
  if (given?.maxCostUsd !== undefined || given?.budget !== undefined) return {};
  const end = recorded.findLast(event => event.event === 'run_end');
  if (end?.event !== 'run_end' || end.stop_reason !== 'budget_exceeded' || end.limit === undefined)
    return {};
  const { name, value } = end.limit;
  if (name === 'maxCostUsd') return { maxCostUsd: value };
  const budget = costBudget({ name, limitUsd: value });
  const spentByRun = end.cost?.usd ?? 0;
  // Stopped after an answer (its tools not run): the budget was past its limit then. Stopped
  // before a call (not made): the budget was within it, and the call's estimate went past.
  const pastLimit = stoppedAfterAnswer(recorded) ? 1e-9 : 0;
  budget.spend(Math.max(0, value - spentByRun + pastLimit));
  return { budget };
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
