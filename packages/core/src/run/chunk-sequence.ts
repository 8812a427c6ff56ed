import type { Redactor } from '../redaction/redactor.js';
import type { Clock } from '../util/clock.js';
import type { Chunk, ChunkData, ChunkType } from './chunk.js';

/**
 * Makes the chunks of one run. Chunks are numbered (0, 1, 2, …) when the run yields them, not when
 * they are made: a delegated agent's chunks are made while tools run in parallel and yielded
 * later, in call order.
 */
export class ChunkSequence {
  readonly #clock: Clock;
  readonly #session: string;
  readonly #redactor: Redactor | undefined;
  #seq = 0;

  constructor(clock: Clock, session: string, redactor?: Redactor) {
    this.#clock = clock;
    this.#session = session;
    this.#redactor = redactor;
  }

  /** A new chunk, not yet numbered. */
  make<Type extends ChunkType>(type: Type, agent: string, data: ChunkData[Type]): Chunk {
    return {
      time: new Date(this.#clock.now()).toISOString(),
      agent,
      session: this.#session,
      type,
      data: this.#redactor === undefined ? data : this.#redactor.value(data),
      seq: -1,
    } as Chunk;
  }

  /** Gives `chunk` the next number, as the run hands it to the consumer. */
  number(chunk: Chunk): Chunk {
    (chunk as { seq: number }).seq = this.#seq++;
    return chunk;
  }
}
