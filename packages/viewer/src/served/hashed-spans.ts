import type { SpanIndex } from '@agent-trace/trace/model';

/** Two 32-bit FNV-1a hashes of a text, with different seeds: 64 bits naming it. */
function hashes(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 15);
  }
  return [a >>> 0, b >>> 0 || 1];
}

/**
 * The spans of one run by a 64-bit hash of their id, in an open-addressed table of typed arrays:
 * 24 bytes a span against about 60 in maps of strings, for outlines of runs of a million spans.
 * Two ids share a hash with odds near 10⁻⁸ in a run of a million spans.
 */
export class HashedSpans implements SpanIndex<number> {
  #low = new Uint32Array(1024);
  #high = new Uint32Array(1024);
  #rows = new Int32Array(1024);
  #size = 0;

  get(_run: string, spanId: string): number | undefined {
    const [low, high] = hashes(spanId);
    const at = this.#find(low, high);
    return this.#high[at] === 0 ? undefined : this.#rows[at];
  }

  set(_run: string, spanId: string, row: number): void {
    if ((this.#size + 1) * 2 > this.#high.length) this.#grow();
    const [low, high] = hashes(spanId);
    const at = this.#find(low, high);
    if (this.#high[at] === 0) this.#size++;
    this.#low[at] = low;
    this.#high[at] = high;
    this.#rows[at] = row;
  }

  /** The slot holding the hash, or the empty slot where it would go. */
  #find(low: number, high: number): number {
    const mask = this.#high.length - 1;
    let at = low & mask;
    while (this.#high[at] !== 0 && (this.#low[at] !== low || this.#high[at] !== high))
      at = (at + 1) & mask;
    return at;
  }

  #grow(): void {
    const [low, high, rows] = [this.#low, this.#high, this.#rows];
    this.#low = new Uint32Array(low.length * 2);
    this.#high = new Uint32Array(high.length * 2);
    this.#rows = new Int32Array(rows.length * 2);
    for (let slot = 0; slot < high.length; slot++) {
      if (high[slot] === 0) continue;
      const at = this.#find(low[slot]!, high[slot]!);
      this.#low[at] = low[slot]!;
      this.#high[at] = high[slot]!;
      this.#rows[at] = rows[slot]!;
    }
  }
}
