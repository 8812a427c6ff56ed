import type { EventSourceMessage } from 'eventsource-parser';
import { AgentTraceError } from '../kernel/errors/agent-trace-error.js';
import { serverSentEvents } from '../kernel/util/server-sent-events.js';
import type { Chunk, ChunkData, ChunkType } from '../kernel/protocol/chunk.js';
import type { RunStream } from './run.js';

/** The last event of a chunk stream sent by {@link chunkResponse}: how the run ended. */
export interface ChunkStreamEnd {
  readonly stopReason: string;
  /** The run's final answer (text, or the decoded structured value). */
  readonly output: unknown;
}

const chunkTypes: ReadonlySet<string> = new Set<ChunkType>([
  'delta',
  'tool_call',
  'tool_response',
  'usage',
  'error',
  'handoff',
]);

/** The name of the event that closes a stream with the run's outcome. */
const endEvent = 'end';

/** One chunk as a server-sent event: `id` its seq, `event` its type, `data` the chunk as JSON. */
export function encodeChunkEvent(chunk: Chunk): string {
  return `id: ${chunk.seq}\nevent: ${chunk.type}\ndata: ${JSON.stringify(chunk)}\n\n`;
}

/**
 * The chunks as a `text/event-stream` body, one event per chunk (see {@link encodeChunkEvent}),
 * closed by an `end` event carrying the run's stop reason and output when `result` is given (it
 * is called once the chunks are done: `() => running.result`). Cancelling the body stops reading
 * the chunks, which aborts a `stream()` run.
 */
export function chunkEventStream(
  chunks: AsyncIterable<Chunk>,
  result?: () => PromiseLike<{ readonly stopReason: string; readonly output: unknown }>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  let ended = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (ended) return;
      const next = await iterator.next();
      if (next.done !== true) {
        controller.enqueue(encoder.encode(encodeChunkEvent(next.value)));
        return;
      }
      ended = true;
      if (result !== undefined) {
        const { stopReason, output } = await result();
        const end: ChunkStreamEnd = { stopReason, output };
        controller.enqueue(encoder.encode(`event: ${endEvent}\ndata: ${JSON.stringify(end)}\n\n`));
      }
      controller.close();
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/**
 * A web `Response` streaming a run's chunks as server-sent events, ending with the run's stop
 * reason and output: return it from a route handler (Next.js, Hono, a Fetch-API server).
 *
 * @example
 * ```ts
 * export const POST = async (request: Request) =>
 *   chunkResponse(stream(desk, await request.text()));
 * ```
 */
export function chunkResponse(running: RunStream<unknown>, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'text/event-stream; charset=utf-8');
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-cache');
  return new Response(
    chunkEventStream(running, () => running.result),
    { ...init, headers },
  );
}

/** A chunk stream that is not what {@link chunkEventStream} sends. */
export class ChunkStreamError extends AgentTraceError {
  constructor(message: string) {
    super({ message });
    this.name = 'ChunkStreamError';
  }
}

/**
 * Reads a chunk stream sent as server-sent events (by {@link chunkResponse}) back into chunks, in
 * order; the `end` event, if any, is the generator's return value. An event that is not a chunk
 * throws a {@link ChunkStreamError} naming it; a gap in `seq` too, since a chunk was lost.
 */
export async function* readChunkEventStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<Chunk, ChunkStreamEnd | undefined, undefined> {
  let expectedSeq = 0;
  for await (const message of serverSentEvents(body)) {
    if (message.event === endEvent) return parseJson(message) as ChunkStreamEnd;
    const chunk = toChunk(message);
    if (chunk.seq !== expectedSeq) {
      throw new ChunkStreamError(
        `Chunk stream gap: expected seq ${expectedSeq}, got ${chunk.seq}. A chunk was lost; reconnect and resume after seq ${expectedSeq - 1}.`,
      );
    }
    expectedSeq++;
    yield chunk;
  }
  return undefined;
}

function parseJson(message: EventSourceMessage): unknown {
  try {
    return JSON.parse(message.data);
  } catch (error) {
    throw new ChunkStreamError(
      `Chunk stream event '${message.event ?? 'message'}' is not JSON (${(error as Error).message}): ${message.data.slice(0, 120)}`,
    );
  }
}

function toChunk(message: EventSourceMessage): Chunk {
  const value = parseJson(message) as Partial<Chunk> | null;
  const valid =
    typeof value === 'object' &&
    value !== null &&
    typeof value.type === 'string' &&
    chunkTypes.has(value.type) &&
    value.type === message.event &&
    typeof value.seq === 'number' &&
    typeof value.agent === 'string' &&
    typeof value.time === 'string' &&
    typeof value.data === 'object' &&
    value.data !== null;
  if (!valid) {
    throw new ChunkStreamError(
      `Chunk stream event '${message.event ?? 'message'}' is not a chunk: expected { time, agent, session, type, data, seq } with type one of ${[...chunkTypes].join(', ')} matching the event name. Got: ${message.data.slice(0, 120)}`,
    );
  }
  const chunk = value as Chunk;
  // JSON drops undefined fields; a tool response without an error has `error: undefined`.
  if (chunk.type === 'tool_response' && !Object.hasOwn(chunk.data, 'error')) {
    const data: ChunkData['tool_response'] = { ...chunk.data, error: undefined };
    return { ...chunk, data };
  }
  return chunk;
}
