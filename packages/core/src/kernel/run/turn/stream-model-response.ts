import { StreamAssembler } from '../../model/assemble-stream.js';
import type { ModelResponse, ModelStreamPart } from '../../model/language-model.js';
import { raceAbort } from '../../util/abort.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { CallTimer, IdleWatch } from './model-call-timers.js';
import type { RunState } from '../frame/run-state.js';
import type { TextSplitter } from './text-splitter.js';
import { pieceChunks } from './tool-calling.js';

/**
 * Reads a model's stream part by part, yielding a chunk for each piece of text (a `delta`; in
 * ReAct mode, `react` for the parts of a step), and returns the assembled response: the same one
 * `generate` would have returned.
 */
/** When a streamed call's first content chunk came, and how many came. */
export class StreamTiming {
  firstChunkMs: number | undefined;
  chunks = 0;
  readonly #started: number;

  constructor(private readonly clock: { now(): number }) {
    this.#started = clock.now();
  }

  /** A content chunk arrived (text, or a tool call's start or arguments). */
  chunk(): void {
    if (this.chunks++ === 0) this.firstChunkMs = Math.max(0, this.clock.now() - this.#started);
  }
}

export async function* streamModelResponse(
  parts: AsyncIterable<ModelStreamPart>,
  agentName: string,
  state: Pick<RunState, 'chunks' | 'signal' | 'redaction'>,
  {
    splitter,
    deadline,
    idle,
    timing,
  }: {
    /** Splits the text into chunks' pieces (ReAct mode). @defaultValue all of it is `delta` */
    readonly splitter?: TextSplitter | undefined;
    /** The model call's own time limit. */
    readonly deadline?: CallTimer | undefined;
    /** Fails the call when the stream goes silent. */
    readonly idle?: IdleWatch | undefined;
    /** Where the first content chunk's time and the number of content chunks are kept. */
    readonly timing?: StreamTiming | undefined;
  } = {},
): AsyncGenerator<Chunk, ModelResponse, undefined> {
  const assembler = new StreamAssembler();
  // A secret split across deltas must not reach a chunk: deltas pass through a redactor that holds
  // back what may still be part of one.
  const deltas =
    state.redaction === undefined || !state.chunks.wanted ? undefined : state.redaction.stream();
  const iterator = parts[Symbol.asyncIterator]();
  const limits = [deadline?.expired, idle?.expired].filter(
    (limit): limit is Promise<never> => limit !== undefined,
  );
  let done = false;
  try {
    for (;;) {
      const pending = iterator.next();
      const next = await raceAbort(
        limits.length === 0 ? pending : Promise.race([pending, ...limits]),
        state.signal,
      );
      if (next.done === true) {
        done = true;
        break;
      }
      idle?.touch();
      if (
        timing !== undefined &&
        next.value.type !== 'finish' &&
        next.value.type !== 'tool-call-end' &&
        next.value.type !== 'reasoning-end'
      )
        timing.chunk();
      assembler.add(next.value);
      if (next.value.type === 'text-delta' && next.value.text !== '') {
        const text = deltas === undefined ? next.value.text : deltas.push(next.value.text);
        if (text === '') continue;
        if (splitter === undefined) yield state.chunks.make('delta', agentName, { text });
        else yield* pieceChunks(splitter.push(text), agentName, state.chunks);
      }
    }
  } finally {
    if (!done) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
  const rest = deltas?.flush() ?? '';
  if (splitter === undefined) {
    if (rest !== '') yield state.chunks.make('delta', agentName, { text: rest });
  } else yield* pieceChunks([...splitter.push(rest), ...splitter.flush()], agentName, state.chunks);
  return assembler.finish();
}
