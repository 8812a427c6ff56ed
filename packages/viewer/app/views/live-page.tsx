import { useEffect, useState } from 'preact/hooks';
import type { TraceEvent } from '@agent-trace/core';
import type { ServedTraceFile } from '../../src/trace-server.js';
import { duration } from '../model/format.js';
import { buildRun, type RunModel } from '../model/run-model.js';
import { TracePage } from './trace-page.js';

/** How often the list of trace files is asked for again. */
const listEveryMs = 2000;

/** The runs of a followed file, rebuilt run by run as events arrive. */
class LiveRuns {
  readonly #events = new Map<string, TraceEvent[]>();
  readonly #models = new Map<string, RunModel>();

  constructor(readonly file: string) {}

  add(batch: readonly TraceEvent[]): void {
    const touched = new Set<string>();
    for (const event of batch) {
      let list = this.#events.get(event.run);
      if (list === undefined) this.#events.set(event.run, (list = []));
      list.push(event);
      touched.add(event.run);
    }
    for (const run of touched)
      this.#models.set(run, buildRun(this.#events.get(run) ?? [], this.file));
  }

  get runs(): RunModel[] {
    return [...this.#models.values()];
  }
}

function fileFromHash(): string | undefined {
  const match = /^#file=(.+)$/.exec(window.location.hash);
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

/** `agent-trace view --serve`: the folder's trace files, and the chosen one's runs as they are written. */
export function LivePage({ title }: { title: string }) {
  const [files, setFiles] = useState<readonly ServedTraceFile[]>([]);
  const [file, setFile] = useState<string | undefined>(fileFromHash());
  const [runs, setRuns] = useState<readonly RunModel[]>([]);
  const [problems, setProblems] = useState<readonly string[]>([]);
  useEffect(() => {
    let stopped = false;
    const list = (): void => {
      fetch('/api/files')
        .then(response => response.json() as Promise<ServedTraceFile[]>)
        .then(found => {
          if (stopped) return;
          setFiles(found);
          setFile(current => current ?? found[0]?.name);
        })
        .catch(() =>
          setProblems([
            'The trace server does not answer: is agent-trace view --serve still running?',
          ]),
        );
    };
    list();
    const timer = setInterval(list, listEveryMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);
  useEffect(() => {
    if (file === undefined) return undefined;
    window.location.hash = `file=${encodeURIComponent(file)}`;
    const runsOfFile = new LiveRuns(file);
    setRuns([]);
    setProblems([]);
    let frame = 0;
    const source = new EventSource(`/api/events?file=${encodeURIComponent(file)}`);
    source.addEventListener('events', message => {
      runsOfFile.add(JSON.parse((message as MessageEvent<string>).data) as TraceEvent[]);
      if (frame === 0)
        frame = requestAnimationFrame(() => {
          frame = 0;
          setRuns(runsOfFile.runs);
        });
    });
    const report = (message: Event): void =>
      setProblems(seen => [...seen, JSON.parse((message as MessageEvent<string>).data) as string]);
    source.addEventListener('problem', report);
    source.addEventListener('warning', report);
    return () => {
      source.close();
      cancelAnimationFrame(frame);
    };
  }, [file]);
  const picker = <FilePicker files={files} file={file} onPick={setFile} />;
  return (
    <TracePage
      title={file === undefined ? title : `${title}/${file}`}
      runs={runs}
      warnings={problems}
      aside={picker}
      empty={file === undefined ? 'No trace file chosen.' : 'Waiting for events…'}
    />
  );
}

/** The served folder's trace files, newest first, to choose one to follow. */
function FilePicker({
  files,
  file,
  onPick,
}: {
  readonly files: readonly ServedTraceFile[];
  readonly file: string | undefined;
  readonly onPick: (file: string) => void;
}) {
  return (
    <div class="files" aria-label="Trace files">
      <select
        aria-label="Trace file"
        value={file ?? ''}
        onChange={event => onPick(event.currentTarget.value)}
      >
        {files.length === 0 ? <option value="">no .jsonl files yet</option> : null}
        {files.map(each => (
          <option value={each.name}>
            {each.name} · {(each.size / 1024).toFixed(1)} KiB ·{' '}
            {duration(Date.now() - each.modified)} ago
          </option>
        ))}
      </select>
      <span class="live-dot" title="following the file as it is written">
        live
      </span>
    </div>
  );
}
