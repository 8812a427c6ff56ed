import { useEffect, useRef, useState } from 'preact/hooks';
import type { RunSummary } from '../../src/viewer-data.js';
import { runKey, type RunModel } from '../model/run-model.js';
import { fetchOutline } from '../model/outline-fetch.js';
import { ListRows } from '../model/run-rows.js';
import { WindowedRows } from '../model/windowed-rows.js';

/** A listed run before it is opened: its summary, no rows. */
export function listedRun(summary: RunSummary): RunModel {
  return {
    ...summary,
    key: runKey(summary.file, summary.id),
    rows: new ListRows([]),
    events: [],
    graph: summary.graph ?? [],
  };
}

/** A big run's outline is fetched again at most this often while its file grows. */
const bigOutlineEveryMs = 2000;

const address = (path: string, summary: RunSummary): string =>
  `${path}?file=${encodeURIComponent(summary.file)}&run=${encodeURIComponent(summary.id)}`;

/** An opened run: its rows, the outline version it holds, and whether it is asking the server. */
interface Opened {
  readonly key: string;
  readonly chosen: RunSummary;
  readonly rows: WindowedRows;
  version: number;
  at: number;
  busy: boolean;
  /** A change came while asking: ask again after. */
  again: boolean;
  closed: boolean;
}

/** Asks for the run's summary, and its outline when it moved; again while changes came meanwhile. */
async function refresh(opened: Opened, show: (model: RunModel) => void): Promise<void> {
  if (opened.busy) {
    opened.again = true;
    return;
  }
  opened.busy = true;
  try {
    do {
      opened.again = false;
      const summary = (await fetch(address('/api/run', opened.chosen)).then(answer =>
        answer.ok ? answer.json() : undefined,
      )) as RunSummary | undefined;
      if (summary === undefined || opened.closed) continue;
      if (summary.version === opened.version) continue;
      const wait = opened.at + bigOutlineEveryMs - Date.now();
      if ((summary.rowCount ?? 0) > 100_000 && wait > 0 && opened.version !== -1) {
        // A big run's outline is fetched at most every `bigOutlineEveryMs`: once the time is up.
        setTimeout(() => void refresh(opened, show).catch(() => undefined), wait);
        continue;
      }
      const outline = await fetchOutline(address('/api/outline', opened.chosen));
      if (opened.closed) return;
      opened.version = summary.version ?? 0;
      opened.at = Date.now();
      opened.rows.setOutline(
        new Int32Array(outline),
        summary.startedAt,
        summary.lastAt ?? summary.startedAt,
      );
      show({ ...listedRun(summary), rows: opened.rows, reading: summary.reading });
    } while (opened.again && !opened.closed);
  } finally {
    opened.busy = false;
  }
}

/**
 * The opened run of a served page: its summary and outline fetched from the server (again when
 * `changes` moves and the run has grown; one request at a time, so a stream of changes while a
 * big file is read cannot starve it), its rows fetched in windows as they are drawn.
 */
export function useServedRun(
  chosen: RunSummary | undefined,
  changes: number,
): RunModel | undefined {
  const [model, setModel] = useState<RunModel | undefined>(undefined);
  const [, setFetched] = useState(0);
  const state = useRef<Opened | undefined>(undefined);
  const key = chosen === undefined ? '' : runKey(chosen.file, chosen.id);
  useEffect(() => {
    if (chosen === undefined) return undefined;
    const rows = new WindowedRows(chosen.file, chosen.id, () => setFetched(n => n + 1));
    const opened: Opened = {
      key,
      chosen,
      rows,
      version: -1,
      at: 0,
      busy: false,
      again: false,
      closed: false,
    };
    state.current = opened;
    setModel(undefined);
    return () => {
      opened.closed = true;
    };
  }, [key]);
  useEffect(() => {
    const opened = state.current;
    if (opened?.key === key) void refresh(opened, setModel).catch(() => undefined);
  }, [key, changes]);
  return model?.key === key ? model : undefined;
}
