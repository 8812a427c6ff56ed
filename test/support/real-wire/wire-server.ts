/**
 * A server on 127.0.0.1 that answers model calls with recorded real responses, as the provider
 * sent them: a JSON body, or a stream's recorded `data:` payloads as server-sent events, written
 * in pieces of a few bytes so the client reads them split at odd offsets.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** Where the recorded responses are kept. */
export const realWireFolder = join(import.meta.dirname, '../../fixtures/real-wire');

/** A recorded answer: its file, how the provider sent it, and the HTTP status it came with. */
export interface Recorded {
  readonly file: string;
  readonly as: 'anthropic-sse' | 'openai-sse' | 'json';
  readonly status?: number;
}

/** The text of a recorded file. */
export const recordedText = (file: string): string =>
  readFileSync(join(realWireFolder, file), 'utf8');

/** The body of `recorded` as the provider sent it on the wire. */
export function bodyOf({ file, as }: Recorded): string {
  const text = recordedText(file);
  if (as === 'json') return text;
  return text
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => {
      const type = (JSON.parse(line) as { type?: string }).type;
      return as === 'anthropic-sse' ? `event: ${type}\ndata: ${line}\n\n` : `data: ${line}\n\n`;
    })
    .join('');
}

/** Serves the queued answers in turn, each in pieces of `piece` bytes; counts the requests. */
export class WireServer {
  readonly #server: Server;
  #queue: Recorded[] = [];
  requests = 0;
  piece = 7;

  constructor() {
    this.#server = createServer((request, response) => {
      request.resume();
      this.requests++;
      const next = this.#queue.shift();
      if (next === undefined) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end('{"error":{"message":"no answer queued"}}');
        return;
      }
      response.writeHead(next.status ?? 200, {
        'content-type': next.as === 'json' ? 'application/json' : 'text/event-stream',
      });
      const bytes = Buffer.from(bodyOf(next));
      for (let at = 0; at < bytes.length; at += this.piece)
        response.write(bytes.subarray(at, at + this.piece));
      response.end();
    });
  }

  /** Listens on a free port of 127.0.0.1; gives its URL. */
  async start(): Promise<string> {
    await new Promise<void>(resolve => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** The answers the next requests get, in order (none: a 500). */
  answer(...recorded: Recorded[]): void {
    this.#queue = [...recorded];
    this.requests = 0;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise(resolve => this.#server.close(resolve));
  }
}
