import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realpath, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';

/** Answers a request with a body and the headers every answer of the server has. */
export function send(
  response: ServerResponse,
  status: number,
  type: string,
  body: string | Uint8Array,
): void {
  response.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
}

/** Answers with JSON. */
export function sendJson(response: ServerResponse, value: unknown): void {
  send(response, 200, 'application/json', JSON.stringify(value));
}

/** The hosts a server bound to a loopback address answers (so a page of another site cannot). */
function isLoopbackHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === `[::1]:${port}`;
}

/** True for the addresses only this machine reaches. */
export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1';
}

/**
 * An HTTP server answering GET and POST requests with `handle`: bound to `host` (127.0.0.1 unless told),
 * and when bound to a loopback address answering only requests addressed to it. A handler that
 * throws answers 500 with its message.
 */
export async function listen(
  host: string,
  port: number,
  handle: (url: URL, response: ServerResponse, request: IncomingMessage) => Promise<void>,
): Promise<{ server: Server; url: string }> {
  let bound = 0;
  const server = createServer((request, response) => {
    const answer = async (): Promise<void> => {
      if (isLoopback(host) && !isLoopbackHost(request.headers.host, bound))
        return send(response, 403, 'text/plain', `This server answers requests to ${host} only.`);
      if (request.method !== 'GET' && request.method !== 'POST')
        return send(response, 405, 'text/plain', 'GET and POST only.');
      return handle(new URL(request.url ?? '/', 'http://127.0.0.1'), response, request);
    };
    answer().catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, 'text/plain', String(error));
      else response.end();
    });
  });
  bound = await new Promise<number>((ready, fail) => {
    server.once('error', error =>
      fail(
        new Error(
          `Cannot serve on ${host}:${port}: ${error.message}. Choose another port, or 0 for a free one.`,
          { cause: error },
        ),
      ),
    );
    server.listen(port, host, () => ready((server.address() as AddressInfo).port));
  });
  const shown = host.includes(':') ? `[${host}]` : host;
  return { server, url: `http://${shown}:${bound}/` };
}

/**
 * The file a request names, when it is a `.jsonl` file inside `root`: a path outside it (`..`,
 * an absolute path, or a link inside that leads out) is undefined.
 */
export async function fileInside(root: string, name: string): Promise<string | undefined> {
  const path = resolve(root, name);
  if (!path.startsWith(root + sep) || !path.endsWith('.jsonl')) return undefined;
  try {
    const [real, realRoot] = await Promise.all([realpath(path), realpath(root)]);
    if (!real.startsWith(realRoot + sep)) return undefined;
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The folder to serve, resolved; throws saying what to give when it is not a folder. */
export async function servedFolder(folder: string): Promise<string> {
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
      `Cannot serve '${folder}': ${problem}. Give the folder of the traces, e.g. agent-trace serve traces.`,
    );
  return root;
}
