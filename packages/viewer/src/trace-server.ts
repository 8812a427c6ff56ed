import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { AgentTraceError } from '@agent-trace/core';
import { describeNewerContent, tailTrace } from '@agent-trace/trace';
import { viewerHtml } from './viewer-html.js';

/** Options of {@link serveTraces}. */
export interface ServeTracesOptions {
  /** The port on 127.0.0.1; 0 picks a free one. @defaultValue 0 */
  readonly port?: number;
  /** How often a followed file is checked for appended lines, in milliseconds. @defaultValue 100 */
  readonly pollMs?: number;
}

/** A running trace server. */
export interface TraceServer {
  /** The page's address, e.g. `http://127.0.0.1:41234/`. */
  readonly url: string;
  /** Stops the server and every open follow. */
  close(): Promise<void>;
}

/** A trace file the server offers. */
export interface ServedTraceFile {
  /** The path relative to the served folder, with `/` separators. */
  readonly name: string;
  readonly size: number;
  /** Epoch milliseconds of the last write. */
  readonly modified: number;
}

/** How deep the folder is searched for `.jsonl` files. */
const maxDepth = 4;

/**
 * Serves the viewer for the trace files of a folder on 127.0.0.1: the page lists the `.jsonl`
 * files (subfolders included, `node_modules` and hidden ones left out), and shows a file's runs as
 * they are written: appended lines reach the page as server-sent events. Only requests addressed
 * to 127.0.0.1 or localhost are answered, and only files inside the folder are read.
 */
export async function serveTraces(
  folder: string,
  options: ServeTracesOptions = {},
): Promise<TraceServer> {
  const root = await servedFolder(folder);
  const follows = new Set<AbortController>();
  const page = viewerHtml({ mode: 'serve', title: relative(process.cwd(), root) || '.' });
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, 'text/plain', String(error));
      else response.end();
    });
  });
  let port = 0;
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!isLocalHost(request.headers.host, port))
      return send(response, 403, 'text/plain', 'This server answers requests to 127.0.0.1 only.');
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET') return send(response, 405, 'text/plain', 'GET only.');
    if (url.pathname === '/') return send(response, 200, 'text/html; charset=utf-8', page);
    if (url.pathname === '/api/files')
      return send(response, 200, 'application/json', JSON.stringify(await listTraces(root)));
    if (url.pathname === '/api/events') return follow(url.searchParams.get('file'), response);
    return send(response, 404, 'text/plain', 'Not found.');
  }
  async function follow(name: string | null, response: ServerResponse): Promise<void> {
    const file = name === null ? undefined : await tracePath(root, name);
    if (file === undefined)
      return send(response, 404, 'text/plain', `No trace file '${name ?? ''}' in ${root}.`);
    const controller = new AbortController();
    follows.add(controller);
    response.on('close', () => controller.abort());
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    const onNewerContent = (content: Parameters<typeof describeNewerContent>[0]): void =>
      void response.write(event('warning', describeNewerContent(content)));
    try {
      const batches = tailTrace(file, {
        pollMs: options.pollMs,
        signal: controller.signal,
        onNewerContent,
      });
      for await (const batch of batches)
        if (batch.events.length > 0) response.write(event('events', batch.events));
    } catch (error) {
      if (!AgentTraceError.isInstance(error)) throw error;
      response.write(event('problem', error.message));
    } finally {
      follows.delete(controller);
      response.end();
    }
  }
  port = await listenLocally(server, options.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise(done => {
        for (const controller of follows) controller.abort();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** The folder to serve, resolved; throws saying what to give when it is not a folder. */
async function servedFolder(folder: string): Promise<string> {
  const root = resolve(folder);
  const found = await stat(root).catch(() => undefined);
  const problem =
    found === undefined
      ? 'there is no such folder'
      : found.isDirectory()
        ? undefined
        : 'it is not a folder';
  if (problem !== undefined)
    throw new Error(
      `Cannot serve '${folder}': ${problem}. Give the folder of the traces, e.g. agent-trace view --serve traces.`,
    );
  return root;
}

/** Listens on 127.0.0.1 and gives the port; a port taken fails saying what to do. */
function listenLocally(server: Server, port: number): Promise<number> {
  return new Promise<number>((ready, fail) => {
    server.once('error', error =>
      fail(
        new Error(
          `Cannot serve on 127.0.0.1:${port}: ${error.message}. Choose another port, or 0 for a free one.`,
          { cause: error },
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
  });
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
}

function event(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

function isLocalHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** The `.jsonl` files under the folder, the most recently written first. */
async function listTraces(root: string): Promise<ServedTraceFile[]> {
  const files: ServedTraceFile[] = [];
  async function walk(folder: string, depth: number): Promise<void> {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory() && depth < maxDepth) await walk(path, depth + 1);
      if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
      const { size, mtimeMs } = await stat(path);
      files.push({ name: relative(root, path).split(sep).join('/'), size, modified: mtimeMs });
    }
  }
  await walk(root, 0);
  return files.sort((a, b) => b.modified - a.modified || a.name.localeCompare(b.name));
}

/** The file a request names, when it is a `.jsonl` file inside the folder. */
async function tracePath(root: string, name: string): Promise<string | undefined> {
  const path = resolve(root, name);
  if (!path.startsWith(root + sep) || !path.endsWith('.jsonl')) return undefined;
  try {
    // A link inside the folder that leads out of it is not followed.
    const [real, realRoot] = await Promise.all([realpath(path), realpath(root)]);
    if (!real.startsWith(realRoot + sep)) return undefined;
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}
