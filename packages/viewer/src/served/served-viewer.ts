import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TraceEvent } from '@agent-trace/core';
import { RunFilterError } from '@agent-trace/trace/library';
import { drawnRow, type DrawnRow } from '../drawn-row.js';
import { viewerHtml } from '../viewer-html.js';
import { FileOutline } from './file-outline.js';
import { outlineWorkerPath, outlineWorkerSource } from './outline-worker.js';
import { randomBytes } from 'node:crypto';
import { answerFeedback } from './feedback-route.js';
import { answerDataset } from './dataset-route.js';
import { isLoopback, listen, send, sendJson } from './http.js';
import {
  filesSource,
  librarySource,
  type LibrarySourceOptions,
  type RunSource,
} from './run-sources.js';

/** Options of {@link serveLibrary} and {@link serveFiles}. */
export interface ServeOptions {
  /** The port; 0 picks a free one. @defaultValue 0 */
  readonly port?: number;
  /**
   * The address to listen on. Served on a loopback address, only requests addressed to it are
   * answered. @defaultValue '127.0.0.1'
   */
  readonly host?: string;
  /** How often the files are looked at for new and appended lines, in milliseconds. @defaultValue 500 */
  readonly pollMs?: number;
  /**
   * A folder of datasets: a served library's page then offers "Add to dataset", which adds a run
   * to `<datasets>/<name>.jsonl` (as `agent-trace dataset add`). @defaultValue none: not offered
   */
  readonly datasets?: string;
}

/** A running served viewer. */
export interface ServedViewer {
  /** The page's address, e.g. `http://127.0.0.1:41234/`. */
  readonly url: string;
  /** Stops the server, its polling and every open page's stream. */
  close(): Promise<void>;
}

/** The most rows one request for a window of rows gets. */
const maxWindow = 2000;
/** How many files' outlines the server keeps; the least recently asked for goes first. */
const keptOutlines = 16;
/** What a request reads of a file before answering; the rest is read in the background. */
const firstReadBytes = 8 * 1024 * 1024;
/** The least time between two `changed` messages to the pages. */
const changedEveryMs = 250;

/**
 * `agent-trace serve <folder>`: the viewer over a folder's trace library. The runs page asks the
 * index for runs (filtered by agent, tool, model, stop reason, error, cost, duration, time,
 * session or text); a run opened is outlined from its file and its rows are read back in windows
 * by byte offset, so neither the page nor the server ever holds a whole file. New and growing
 * files reach open pages without a reload. It writes only people's feedback on a run (served on a
 * loopback address, from its own page), into the run's file; no file outside the folder is served.
 */
export async function serveLibrary(
  folder: string,
  options: ServeOptions & LibrarySourceOptions = {},
): Promise<ServedViewer> {
  return servedViewer(await librarySource(folder, options), options);
}

/**
 * The served viewer of some trace files (what `agent-trace view` opens for a trace too big for one
 * page): their runs are outlined as the files are read, the first rows shown while a big file is
 * still being read, and each run's rows fetched in windows.
 */
export function serveFiles(
  files: readonly string[],
  options: ServeOptions = {},
): Promise<ServedViewer> {
  return servedViewer(filesSource(files), options);
}

/** The runs a page's filters select; a filter that is not valid answers 400 with what to change. */
async function answerRuns(
  source: RunSource,
  outlines: OutlineCache,
  query: URLSearchParams,
  response: ServerResponse,
): Promise<void> {
  let runs;
  try {
    runs = await source.runs(query, (path, name) => outlines.get(path, name));
  } catch (error) {
    if (!(error instanceof RunFilterError)) throw error;
    return send(response, 400, 'text/plain; charset=utf-8', error.message);
  }
  sendJson(response, runs);
}

/**
 * The page the server serves, and the token its feedback comes with: a page served on a loopback
 * address may record feedback (no page of another site can read the token).
 */
function servedPage(
  source: RunSource,
  host: string,
  datasets: string | undefined,
): { page: string; token?: string } {
  const shown = { mode: 'serve', title: source.title, source: source.kind } as const;
  if (!isLoopback(host)) return { page: viewerHtml(shown) };
  const token = randomBytes(16).toString('hex');
  const adds = datasets !== undefined && source.folder !== undefined;
  return { page: viewerHtml({ ...shown, token, ...(adds ? { datasets: true } : {}) }), token };
}

/** What a page posts: a feedback on a run, or a run to add to a dataset. */
function answerPost(
  path: string,
  source: RunSource,
  token: string | undefined,
  options: ServeOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (path === '/api/feedback') return answerFeedback(source, token, request, response);
  if (path === '/api/dataset')
    return answerDataset(source, options.datasets, token, request, response);
  send(response, 405, 'text/plain', 'Only /api/feedback and /api/dataset take POST.');
  return Promise.resolve();
}

/** A run's summary, with the rows and version of the outline the page would get now. */
async function answerRun(
  source: RunSource,
  outlines: OutlineCache,
  query: URLSearchParams,
  response: ServerResponse,
): Promise<void> {
  const opened = await openRun(source, outlines, query, response);
  if (opened === undefined) return;
  // Older while a file is read.
  const tree = opened.run.tree(opened.file.reading);
  const { scanned, size } = opened.file.progress;
  sendJson(response, {
    ...opened.run.summary(),
    rowCount: tree.order.length,
    version: tree.version,
    ...(opened.file.reading ? { reading: { bytes: scanned, of: size } } : {}),
  });
}

async function servedViewer(source: RunSource, options: ServeOptions): Promise<ServedViewer> {
  const host = options.host ?? '127.0.0.1';
  const { page, token } = servedPage(source, host, options.datasets);
  const outlines = new OutlineCache(() => changes.changed());
  const changes = new Changes();
  const api: Readonly<
    Record<string, (query: URLSearchParams, response: ServerResponse) => Promise<void>>
  > = {
    '/api/runs': (query, response) => answerRuns(source, outlines, query, response),
    '/api/facets': async (_query, response) => sendJson(response, await source.facets()),
    '/api/run': (query, response) => answerRun(source, outlines, query, response),
    '/api/outline': async (query, response) => {
      const opened = await openRun(source, outlines, query, response);
      if (opened !== undefined) {
        const outline = opened.run.outline(opened.file.reading);
        send(response, 200, 'application/octet-stream', new Uint8Array(outline.buffer));
      }
    },
    '/api/rows': async (query, response) => {
      const lines = await windowLines(source, outlines, query, response);
      if (lines === undefined) return;
      sendJson(response, { rows: lines.map(([start, end]) => drawnLines(start!, end!)) });
    },
    '/api/events': async (query, response) => {
      const lines = await windowLines(source, outlines, query, response);
      if (lines === undefined) return;
      const rows = lines.map(([start, end]) => `{"start":${start},"end":${end || 'null'}}`);
      send(response, 200, 'application/json', `{"rows":[${rows.join(',')}]}`);
    },
    '/api/changes': (_query, response) => Promise.resolve(changes.follow(response)),
  };
  // The requests being answered and the poll under way: close waits for them, so no index update
  // or query is left running (a thread that ends under a running DuckDB query kills the process).
  const working = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    working.add(work);
    void work.finally(() => working.delete(work)).catch(() => undefined);
    return work;
  };
  const { server, url } = await listen(
    host,
    options.port ?? 0,
    async (address, response, request) => {
      if (request.method === 'POST')
        return track(answerPost(address.pathname, source, token, options, request, response));
      if (address.pathname === '/') return send(response, 200, 'text/html; charset=utf-8', page);
      if (address.pathname === outlineWorkerPath)
        return send(response, 200, 'text/javascript; charset=utf-8', outlineWorkerSource);
      const answer = Object.hasOwn(api, address.pathname) ? api[address.pathname] : undefined;
      if (answer === undefined) return send(response, 404, 'text/plain', 'Not found.');
      return track(answer(address.searchParams, response));
    },
  );
  let polling: Promise<void> | undefined;
  const timer = setInterval(() => {
    polling ??= track(poll(source, outlines, changes)).finally(() => (polling = undefined));
  }, options.pollMs ?? 500);
  return {
    url,
    close: async () => {
      clearInterval(timer);
      changes.close();
      const closed = new Promise<void>(done => server.close(() => done()));
      server.closeAllConnections();
      await closed;
      await Promise.allSettled([...working]);
      await source.settled();
    },
  };
}

/** Looks for changes: the source's files, and every kept outline's file. */
async function poll(source: RunSource, outlines: OutlineCache, changes: Changes): Promise<void> {
  const changed = await source.poll().catch(() => false);
  if ((await outlines.refreshAll()) || changed) changes.changed();
}

/** The run a request names, its file read up to date; answers 404 (and gives undefined) when none. */
async function openRun(
  source: RunSource,
  outlines: OutlineCache,
  query: URLSearchParams,
  response: ServerResponse,
) {
  const name = query.get('file') ?? '';
  const path = await source.file(name);
  if (path === undefined) {
    send(response, 404, 'text/plain', `No trace file '${name}' is served here.`);
    return undefined;
  }
  const file = await outlines.get(path, name);
  const run = file.run(query.get('run') ?? '');
  if (run !== undefined) return { file, run };
  send(response, 404, 'text/plain', `No run '${query.get('run') ?? ''}' in ${name}.`);
  return undefined;
}

/**
 * The lines (start, and end or '') of the rows `from` … `to` of the run a request names, in the
 * tree order of the outline the page holds (an older one while a big file is read); at most
 * {@link maxWindow} rows. Answers 404 (and gives undefined) when there is no such run.
 */
async function windowLines(
  source: RunSource,
  outlines: OutlineCache,
  query: URLSearchParams,
  response: ServerResponse,
): Promise<string[][] | undefined> {
  const opened = await openRun(source, outlines, query, response);
  if (opened === undefined) return undefined;
  const { run, file } = opened;
  const { order } = run.tree(file.reading);
  const from = Math.max(0, Number(query.get('from')) || 0);
  const to = Math.min(order.length, from + maxWindow, Number(query.get('to')) || 0);
  const places = [];
  for (let index = from; index < to; index++) places.push(run.lines(order[index]!));
  return file.readLines(places);
}

/** A row's drawn fields from its lines: the outline took them as events. */
function drawnLines(startLine: string, endLine: string): DrawnRow {
  const start = JSON.parse(startLine) as TraceEvent;
  return drawnRow(start, endLine === '' ? undefined : (JSON.parse(endLine) as TraceEvent));
}

/**
 * The outlines of the files pages look at, kept up to date. A big file is read a budget at a time
 * in the background, pages told after each part, so its first rows show while the rest is read.
 */
class OutlineCache {
  readonly #outlines = new Map<string, FileOutline>();
  /** Big files being read on in the background. */
  readonly #readingOn = new Set<FileOutline>();
  readonly #onChange: () => void;

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  async get(absolute: string, name: string): Promise<FileOutline> {
    let outline = this.#outlines.get(absolute);
    if (outline === undefined) {
      outline = new FileOutline(absolute, name);
      this.#outlines.set(absolute, outline);
      for (const [path] of this.#outlines) {
        if (this.#outlines.size <= keptOutlines) break;
        this.#outlines.delete(path);
      }
    } else {
      // The latest asked for is the last to go.
      this.#outlines.delete(absolute);
      this.#outlines.set(absolute, outline);
    }
    await this.#read(outline);
    return outline;
  }

  /** Reads on every kept file; true when any changed. */
  async refreshAll(): Promise<boolean> {
    let changed = false;
    for (const outline of [...this.#outlines.values()])
      changed = (await this.#read(outline).catch(() => false)) || changed;
    return changed;
  }

  /** Reads one budget of the file now, and the rest in the background, telling pages as it goes. */
  async #read(outline: FileOutline): Promise<boolean> {
    // While a big file is read on in the background, a request takes what is read so far.
    if (this.#readingOn.has(outline)) return false;
    const { changed, more } = await outline.refresh(firstReadBytes);
    if (more && !this.#readingOn.has(outline)) {
      this.#readingOn.add(outline);
      const onward = async (): Promise<void> => {
        for (let step = await outline.refresh(); ; step = await outline.refresh()) {
          this.#onChange();
          if (!step.more) return;
        }
      };
      void onward()
        .catch(() => undefined)
        .finally(() => this.#readingOn.delete(outline));
    }
    return changed;
  }
}

/** The pages following changes (server-sent events), told at most every {@link changedEveryMs}. */
class Changes {
  readonly #followers = new Set<ServerResponse>();
  #last = 0;
  #pending: NodeJS.Timeout | undefined;

  follow(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    response.write(': following\n\n');
    this.#followers.add(response);
    response.on('close', () => this.#followers.delete(response));
  }

  changed(): void {
    if (this.#pending !== undefined) return;
    const wait = Math.max(0, this.#last + changedEveryMs - Date.now());
    this.#pending = setTimeout(() => {
      this.#pending = undefined;
      this.#last = Date.now();
      for (const follower of this.#followers) follower.write('event: changed\ndata: {}\n\n');
    }, wait);
  }

  close(): void {
    clearTimeout(this.#pending);
    for (const follower of this.#followers) follower.end();
    this.#followers.clear();
  }
}
