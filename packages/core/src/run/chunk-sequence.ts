import type { Clock } from '../util/clock.js';
import type { Chunk, ChunkData, ChunkType } from './chunk.js';

/** Makes the chunks of one run, numbering them 0, 1, 2, … */
export class ChunkSequence {
  readonly #clock: Clock;
  readonly #session: string;
  #seq = 0;

  constructor(clock: Clock, session: string) {
    this.#clock = clock;
    this.#session = session;
  }

  /** The next chunk. */
  make<Type extends ChunkType>(type: Type, agent: string, data: ChunkData[Type]): Chunk {
    return {
      time: new Date(this.#clock.now()).toISOString(),
      agent,
      session: this.#session,
      type,
      data,
      seq: this.#seq++,
    } as Chunk;
  }
}
