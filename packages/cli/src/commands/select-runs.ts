import type { TraceEvent } from '@agent-trace/core';
import { recordedRuns } from '@agent-trace/trace';

/**
 * The ids of the runs `wanted` names (ids, or numbers from 1 in file order), every run of the
 * trace when it names none; or what is wrong, for stderr.
 */
export function selectRuns(
  events: readonly TraceEvent[],
  wanted: readonly string[],
): string[] | string {
  const all = recordedRuns(events);
  if (all.length === 0)
    return 'The trace has no run_start: it has no run to rerun or fork. Pass a complete trace (agent-trace validate tells what is missing).';
  if (wanted.length === 0) return all;
  const chosen: string[] = [];
  for (const name of wanted) {
    const id = runNamed(name, all);
    if (id === undefined)
      return `--run ${name}: the trace has no such run. Its ${all.length} run${all.length === 1 ? ' is' : 's are'}: ${all.map((run, at) => `${at + 1}. ${run}`).join(', ')}.`;
    if (!chosen.includes(id)) chosen.push(id);
  }
  return chosen;
}

/**
 * The run `name` names among `runs` (in the order they start in the file): a run's id, or its
 * place from 1; undefined when it names none.
 */
export function runNamed(name: string, runs: readonly string[]): string | undefined {
  if (runs.includes(name)) return name;
  return /^\d+$/.test(name) ? runs[Number(name) - 1] : undefined;
}
