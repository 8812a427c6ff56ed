import { relative, sep } from 'node:path';
import type { TraceEvent, TraceEventOf, TraceMessage } from '@agent-trace/core';
import { RunHistories } from '@agent-trace/core/record';
import { readTrace } from '@agent-trace/trace';
import { trajectoryOf } from '../scorers/trajectory.js';
import type { DatasetCase } from './dataset-case.js';
import { DatasetError } from './dataset-error.js';
import type { PickedRun } from './runs-for-dataset.js';

/** What a case needs of a run, gathered as its file streams by. */
interface Gathered {
  readonly start: TraceEventOf<'run_start'>;
  readonly history: readonly TraceMessage[] | undefined;
  /** Its tool starts and handoff starts: what its trajectory is read from. */
  readonly steps: TraceEvent[];
  version?: string;
  output?: unknown;
}

/**
 * The cases the picked runs make, in their order: each file is read once, streaming, keeping of a
 * run only what its case holds. `datasetFolder` is where the dataset file is: each case's lineage
 * names its trace from there.
 */
export async function casesFromRuns(
  picked: readonly PickedRun[],
  datasetFolder: string,
): Promise<DatasetCase[]> {
  const byFile = new Map<string, Map<string, PickedRun>>();
  for (const each of picked) {
    const runs = byFile.get(each.path) ?? new Map<string, PickedRun>();
    runs.set(each.run, each);
    byFile.set(each.path, runs);
  }
  const made = new Map<string, DatasetCase>();
  for (const [path, runs] of byFile) {
    const gathered = await gather(path, runs);
    for (const [id, run] of runs) {
      const found = gathered.get(id);
      if (found === undefined)
        throw new DatasetError(
          `The library's index names run ${id} in ${path}, which no longer holds it: the file changed since. Add again to index it anew.`,
        );
      made.set(id, caseOf(run, found, datasetFolder));
    }
  }
  return picked.map(each => made.get(each.run) as DatasetCase);
}

async function gather(
  path: string,
  runs: ReadonlyMap<string, PickedRun>,
): Promise<Map<string, Gathered>> {
  const histories = new RunHistories();
  const gathered = new Map<string, Gathered>();
  for await (const event of readTrace(path, { onNewerContent: () => undefined })) {
    // Every run_start, in order: a conversation's turn joins the history its earlier turns left.
    const history = event.event === 'run_start' ? histories.of(event) : undefined;
    if (!runs.has(event.run)) continue;
    let run = gathered.get(event.run);
    if (run === undefined) {
      if (event.event !== 'run_start') continue;
      run = { start: event, history, steps: [] };
      gathered.set(event.run, run);
    }
    if (event.event === 'tool_start' || event.event === 'handoff_start') run.steps.push(event);
    else if (event.event === 'agent_start' && event.parent_span_id === run.start.span_id)
      run.version ??= event.version;
    else if (event.event === 'run_end') run.output = event.output;
  }
  return gathered;
}

function caseOf(run: PickedRun, found: Gathered, datasetFolder: string): DatasetCase {
  const history = found.history ?? found.start.history ?? [];
  return {
    id: run.run,
    input: history.length === 0 ? found.start.input : { message: found.start.input, history },
    expected: {
      ...(found.output === undefined ? {} : { output: found.output }),
      trajectory: trajectoryOf(found.steps),
    },
    metadata: {
      source: {
        run: run.run,
        trace: relative(datasetFolder, run.path).split(sep).join('/'),
        offset: run.offset,
        time: run.time,
        session: run.session,
        agent: run.agent,
        ...(found.version === undefined ? {} : { version: found.version }),
        ...(found.start.release === undefined ? {} : { release: found.start.release }),
        ...(run.stopReason === undefined ? {} : { stopReason: run.stopReason }),
        ...(run.conversation === undefined
          ? {}
          : { conversation: run.conversation, turn: run.turn }),
      },
    },
  };
}
