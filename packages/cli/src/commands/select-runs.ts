import type { TraceEvent } from '@agent-trace/core';
import { recordedRuns, simulatedUserRuns } from '@agent-trace/trace';

/** The runs a command reruns or forks, and the simulated users' runs it left out. */
export interface SelectedRuns {
  /** The ids of the runs chosen, in file order or in the order named. */
  readonly runs: string[];
  /** The simulated users' runs left out (their id → the name their model ran as). */
  readonly users: ReadonlyMap<string, string>;
}

/**
 * The ids of the runs `wanted` names (ids, or numbers from 1 in file order), every run of the
 * trace when it names none; or what is wrong, for stderr. A simulated user's reply is what the
 * person said, not the agent's code: it is left out of every run, and naming one is an error.
 */
export function selectRuns(
  events: readonly TraceEvent[],
  wanted: readonly string[],
): SelectedRuns | string {
  const all = recordedRuns(events);
  if (all.length === 0)
    return 'The trace has no run_start: it has no run to rerun or fork. Pass a complete trace (agent-trace validate tells what is missing).';
  const users = simulatedUserRuns(events);
  if (wanted.length === 0) {
    const runs = all.filter(run => !users.has(run));
    if (runs.length === 0)
      return `The trace holds only a simulated user's replies (${[...new Set(users.values())].join(', ')}): it has no run of an agent to rerun or fork.`;
    return { runs, users };
  }
  const chosen: string[] = [];
  for (const name of wanted) {
    const id = runNamed(name, all);
    if (id === undefined)
      return `--run ${name}: the trace has no such run. Its ${all.length} run${all.length === 1 ? ' is' : 's are'}: ${all.map((run, at) => `${at + 1}. ${run}`).join(', ')}.`;
    const user = users.get(id);
    if (user !== undefined)
      return `--run ${name}: run ${id} is a simulated user's reply ('${user}'): what the person said, which a rerun replays into the agent's turns. Name a run of the agent: ${agentRuns(all, users)}.`;
    if (!chosen.includes(id)) chosen.push(id);
  }
  return { runs: chosen, users: new Map() };
}

/** The agent's runs, numbered as `--run` takes them. */
function agentRuns(all: readonly string[], users: ReadonlyMap<string, string>): string {
  return all
    .map((run, at) => (users.has(run) ? undefined : `${at + 1}. ${run}`))
    .filter(line => line !== undefined)
    .join(', ');
}

/**
 * The run `name` names among `runs` (in the order they start in the file): a run's id, or its
 * place from 1; undefined when it names none.
 */
export function runNamed(name: string, runs: readonly string[]): string | undefined {
  if (runs.includes(name)) return name;
  return /^\d+$/.test(name) ? runs[Number(name) - 1] : undefined;
}
