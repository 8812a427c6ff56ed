import type { Redaction } from '../../trace/redaction.js';
import type { Clock } from '../../util/clock.js';
import { IsoTimes } from '../../util/iso-times.js';
import type { Chunk, ChunkData, ChunkType } from '../../protocol/chunk.js';

/**
 * Makes the chunks of one run. Chunks are numbered (0, 1, 2, …) when the run yields them, not when
 * they are made: a delegated agent's chunks are made while tools run in parallel and yielded
 * later, in call order.
 */
export class ChunkSequence {
  /**
   * False when no one reads the chunks (`run()` drops them): the loop then neither makes nor
   * yields them, which saves a redaction pass and a trip through every generator per chunk.
   */
  readonly wanted: boolean;
  readonly #clock: Clock;
  readonly #session: string;
  readonly #redactor: Redaction | undefined;
  #seq = 0;
  readonly #times = new IsoTimes();

  constructor(clock: Clock, session: string, redactor: Redaction | undefined, wanted: boolean) {
    this.#clock = clock;
    this.#session = session;
    this.#redactor = redactor;
    this.wanted = wanted;
  }

  /** A new chunk, not yet numbered. */
  make<Type extends ChunkType>(type: Type, agent: string, data: ChunkData[Type]): Chunk {
    return {
      time: this.#times.text(this.#clock.now()),
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
