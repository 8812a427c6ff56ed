import { useEffect, useMemo, useState } from 'preact/hooks';
import { tokenHeader, type RunSummary } from '../../src/viewer-data.js';
import { runKey, type RunModel } from '../model/run-model.js';
import { LibraryFilters, type LibraryFilter } from './library-filters.js';
import { listedRun, useServedRun } from './served-run.js';
import type { PageWrites } from './feedback-panel.js';
import { TracePage } from './trace-page.js';

/** Moves whenever the server says its files changed (a new file, appended lines). */
function useChanges(): [number, string | undefined] {
  const [changes, setChanges] = useState(0);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  useEffect(() => {
    const source = new EventSource('/api/changes');
    source.addEventListener('changed', () => setChanges(n => n + 1));
    source.onerror = () =>
      setProblem('The server does not answer: is agent-trace serve still running?');
    source.onopen = () => setProblem(undefined);
    return () => source.close();
  }, []);
  return [changes, problem];
}

/** What the page says while a big file is still being read: its rows grow as it goes. */
function readingLine(run: RunModel | undefined): string | undefined {
  if (run?.reading === undefined) return undefined;
  const { bytes, of } = run.reading;
  const share = of === 0 ? 0 : Math.floor((bytes / of) * 100);
  return `Reading ${run.file}: ${share}% of ${(of / 2 ** 20).toFixed(0)} MB read, rows added as they are read.`;
}

/** Posts to the server with the page's token; rejects with its words. */
async function post(token: string, path: string, body: unknown): Promise<unknown> {
  const answer = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [tokenHeader]: token },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(await answer.text());
  return answer.json();
}

/** What the page writes through its server: feedback, and runs added to datasets. */
function pageWrites(token: string, datasets: boolean): PageWrites {
  return {
    feedback: async (run, draft) => {
      await post(token, '/api/feedback', { file: run.file, run: run.id, ...draft });
    },
    ...(datasets
      ? {
          dataset: async (run, dataset) => {
            const added = (await post(token, '/api/dataset', { run: run.id, dataset })) as {
              file: string;
              added: readonly string[];
              version: string;
            };
            return added.added.length === 0
              ? `Already in ${added.file} (the same input).`
              : `Added to ${added.file} (version ${added.version}).`;
          },
        }
      : {}),
  };
}

/** The query asking the server for the runs a filter selects. */
function runsAddress(filter: LibraryFilter): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filter))
    if (value !== '' && value !== false && value !== undefined)
      query.set(name, value === true ? '' : String(value));
  return `/api/runs?${query.toString()}`;
}

/**
 * A served page (`agent-trace serve`, or `view` of a big trace): the runs are asked of the server
 * (filtered there for a library), kept up to date as files change, and the chosen run's rows
 * fetched in windows.
 */
export function ServedPage({
  title,
  source,
  token,
  datasets,
}: {
  title: string;
  source: 'library' | 'files';
  token?: string;
  datasets?: boolean;
}) {
  const [changes, problem] = useChanges();
  const [filter, setFilter] = useState<LibraryFilter>({});
  const [summaries, setSummaries] = useState<readonly RunSummary[] | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  useEffect(() => {
    let stopped = false;
    fetch(runsAddress(source === 'library' ? filter : {}))
      .then(async answer => {
        if (!answer.ok) throw new Error(await answer.text());
        return answer.json() as Promise<RunSummary[]>;
      })
      .then(found => {
        if (stopped) return;
        setSummaries(found);
        setFailure(undefined);
      })
      .catch((error: Error) => stopped || setFailure(error.message));
    return () => {
      stopped = true;
    };
  }, [filter, changes]);
  const listed = useMemo(() => (summaries ?? []).map(listedRun), [summaries]);
  // A library lists the latest first; files list runs as they come, the latest last.
  const fallback = source === 'library' ? summaries?.[0] : summaries?.at(-1);
  const chosenSummary =
    summaries?.find(summary => runKey(summary.file, summary.id) === chosen) ?? fallback;
  const opened = useServedRun(chosenSummary, changes);
  const runs =
    opened === undefined ? listed : listed.map(run => (run.key === opened.key ? opened : run));
  return (
    <TracePage
      title={title}
      runs={runs}
      warnings={[problem, failure, readingLine(opened)].filter(
        (line): line is string => line !== undefined,
      )}
      empty={summaries === undefined ? 'Reading the traces…' : 'No runs yet.'}
      {...(source === 'library'
        ? { filters: <LibraryFilters filter={filter} onFilter={setFilter} /> }
        : {})}
      chosen={
        chosenSummary === undefined ? undefined : runKey(chosenSummary.file, chosenSummary.id)
      }
      onChoose={setChosen}
      {...(token === undefined ? {} : { writes: pageWrites(token, datasets === true) })}
    />
  );
}
