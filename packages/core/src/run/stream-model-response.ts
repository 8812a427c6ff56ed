import { StreamAssembler } from '../model/assemble-stream.js';
import type { ModelResponse, ModelStreamPart } from '../model/language-model.js';
import { raceAbort } from '../util/abort.js';
import type { Chunk } from './chunk.js';
import type { RunState } from './run-state.js';

/**
 * Reads a model's stream part by part, yielding a `delta` chunk for each piece of text, and
 * returns the assembled response: the same one `generate` would have returned.
 */
export async function* streamModelResponse(
  parts: AsyncIterable<ModelStreamPart>,
  agentName: string,
  state: Pick<RunState, 'chunks' | 'signal'>,
  /** Rejects when the model call's own timeout passes. */
  expired?: Promise<never>,
): AsyncGenerator<Chunk, ModelResponse, undefined> {
  const assembler = new StreamAssembler();
  const iterator = parts[Symbol.asyncIterator]();
  let done = false;
  try {
    for (;;) {
      const pending = iterator.next();
      const next = await raceAbort(
        expired === undefined ? pending : Promise.race([pending, expired]),
        state.signal,
      );
      if (next.done === true) {
        done = true;
        break;
      }
      assembler.add(next.value);
      if (next.value.type === 'text-delta' && next.value.text !== '') {
        yield state.chunks.make('delta', agentName, { text: next.value.text });
      }
    }
  } finally {
    if (!done) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
  return assembler.finish();
}
