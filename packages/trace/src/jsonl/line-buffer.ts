/**
 * Lines waiting to be written, encoded straight into one reused byte buffer: no joined string, no
 * new buffer per write. A line too long for the buffer is handed back to be written on its own.
 */
export class LineBuffer {
  #bytes: Buffer;
  #used = 0;

  /** @param capacity - bytes held before the owner should write them out. */
  constructor(readonly capacity: number) {
    this.#bytes = Buffer.allocUnsafe(Math.max(capacity, 1024));
  }

  /** Bytes waiting. */
  get length(): number {
    return this.#used;
  }

  /** Whether `text` and its newline fit without writing out first (UTF-8: at most 3 bytes a char). */
  fits(text: string): boolean {
    return this.#used + text.length * 3 + 1 <= this.#bytes.length;
  }

  /** Appends `text` and a newline; the caller made sure it {@link fits}. */
  append(text: string): void {
    this.#used += this.#bytes.write(text, this.#used, 'utf8');
    this.#bytes[this.#used++] = 0x0a;
  }

  /** The waiting bytes, and an empty buffer: write them before the next append. */
  take(): Buffer {
    const waiting = this.#bytes.subarray(0, this.#used);
    this.#used = 0;
    return waiting;
  }
}
