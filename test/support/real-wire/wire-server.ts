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

/**
 * A recorded answer: its file, how the provider sent it, the HTTP status it came with, and, in a
 * stream file that holds several answers one after another (a run's model calls, recorded in
 * turn), which one (from 0).
 */
export interface Recorded {
  readonly file: string;
  readonly as: 'anthropic-sse' | 'openai-sse' | 'json';
  readonly status?: number;
  readonly answer?: number;
}

/** The text of a recorded file. */
export const recordedText = (file: string): string =>
  readFileSync(join(realWireFolder, file), 'utf8');

/** The event that opens an answer of a stream. */
const opening = (line: string): boolean => {
  const type = (JSON.parse(line) as { type?: string }).type;
  return type === 'response.created' || type === 'message_start';
};

/** The answers a stream file holds, each as its recorded payload lines, in order. */
export function streamAnswers(file: string): string[][] {
  const answers: string[][] = [];
  for (const line of recordedText(file).split('\n')) {
    if (line.trim() === '') continue;
    if (answers.length === 0 || opening(line)) answers.push([]);
    answers.at(-1)?.push(line);
  }
  return answers;
}

/** How many answers `recorded`'s file holds (a JSON body: one). */
export const answerCount = (recorded: Recorded): number =>
  recorded.as === 'json' ? 1 : streamAnswers(recorded.file).length;

/** The body of `recorded` as the provider sent it on the wire. */
export function bodyOf({ file, as, answer = 0 }: Recorded): string {
  if (as === 'json') return recordedText(file);
  return (streamAnswers(file)[answer] ?? [])
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
  /** The bodies of the requests since the last {@link answer}, parsed. */
  readonly bodies: unknown[] = [];
  piece = 7;

  constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        this.bodies.push(text === '' ? undefined : (JSON.parse(text) as unknown));
      });
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
    this.bodies.length = 0;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise(resolve => this.#server.close(resolve));
  }
}
