import { useEffect, useRef, useState } from 'preact/hooks';
import type { RunSummary } from '../../src/viewer-data.js';
import { runKey, type RunModel } from '../model/run-model.js';
import { ListRows } from '../model/run-rows.js';
import { WindowedRows } from '../model/windowed-rows.js';

/** A listed run before it is opened: its summary, no rows. */
export function listedRun(summary: RunSummary): RunModel {
  return {
    ...summary,
    key: runKey(summary.file, summary.id),
    input: undefined,
    output: undefined,
    rows: new ListRows([]),
    events: [],
    graph: summary.graph ?? [],
  };
}

/** A big run's outline is fetched again at most this often while its file grows. */
const bigOutlineEveryMs = 1000;

const address = (path: string, summary: RunSummary): string =>
  `${path}?file=${encodeURIComponent(summary.file)}&run=${encodeURIComponent(summary.id)}`;

/**
 * The opened run of a served page: its summary and outline fetched from the server (again when
 * `changes` moves and the run has grown), its rows fetched in windows as they are drawn.
 */
export function useServedRun(
  chosen: RunSummary | undefined,
  changes: number,
): RunModel | undefined {
  const [model, setModel] = useState<RunModel | undefined>(undefined);
  const [, setFetched] = useState(0);
  const state = useRef<{ key: string; rows: WindowedRows; version: number; at: number }>(undefined);
  const key = chosen === undefined ? '' : runKey(chosen.file, chosen.id);
  useEffect(() => {
    if (chosen === undefined) return undefined;
    let current = state.current;
    if (current?.key !== key) {
      const rows = new WindowedRows(chosen.file, chosen.id, () => setFetched(n => n + 1));
      current = state.current = { key, rows, version: -1, at: 0 };
      setModel(undefined);
    }
    const opened = current;
    let stopped = false;
    const refresh = async (): Promise<void> => {
      const summary = (await fetch(address('/api/run', chosen)).then(answer =>
        answer.ok ? answer.json() : undefined,
      )) as RunSummary | undefined;
      if (summary === undefined || stopped || summary.version === opened.version) return;
      const big = (summary.rowCount ?? 0) > 100_000;
      const wait = opened.at + bigOutlineEveryMs - Date.now();
      if (big && wait > 0 && opened.version !== -1) {
        // Too soon after the last one: fetched once the time is up, unless a newer change comes.
        setTimeout(() => void (stopped || refresh().catch(() => undefined)), wait);
        return;
      }
      const outline = await fetch(address('/api/outline', chosen)).then(answer =>
        answer.arrayBuffer(),
      );
      if (stopped) return;
      opened.version = summary.version ?? 0;
      opened.at = Date.now();
      opened.rows.setOutline(
        new Int32Array(outline),
        summary.startedAt,
        summary.lastAt ?? summary.startedAt,
      );
      setModel({ ...listedRun(summary), rows: opened.rows });
    };
    void refresh().catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [key, changes]);
  return model?.key === key ? model : undefined;
}
