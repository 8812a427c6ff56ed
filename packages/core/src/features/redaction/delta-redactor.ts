import type { Opening } from './secret-rules.js';

/** What a stream's redaction reads of the run's redactor: its patterns, and how it cleans text. */
export interface StreamRedaction {
  readonly matchers: readonly RegExp[];
  readonly openings: readonly Opening[];
  string(text: string): string;
}

const whitespace = /\s/;

/**
 * Redacts a stream of text deltas so that a secret split across deltas never shows: text is let
 * out only up to a point no secret can span, and redacted there. Held back: the last word (a
 * secret without whitespace may still be growing), anything from the start of an unfinished
 * secret that spans whitespace (see `Redactor.openings`), and any match still touching the cut.
 * Cuts fall on whitespace, so the deltas let out, joined, equal the redacted whole text.
 */
export class DeltaRedactor {
  #held = '';
  readonly #matchers: readonly RegExp[];

  constructor(private readonly redactor: StreamRedaction) {
    this.#matchers = redactor.matchers;
  }

  /** Takes a delta; returns the redacted text that can be shown now (maybe empty). */
  push(delta: string): string {
    this.#held += delta;
    const cut = this.#safeCut(this.#held);
    if (cut === 0) return '';
    const released = this.#held.slice(0, cut);
    this.#held = this.#held.slice(cut);
    return this.redactor.string(released);
  }

  /** At the end of the stream: the rest, redacted. */
  flush(): string {
    const rest = this.#held;
    this.#held = '';
    return rest === '' ? '' : this.redactor.string(rest);
  }

  /** The longest prefix of `text` that no secret can reach past, ending on whitespace. */
  #safeCut(text: string): number {
    let cut = afterLastWhitespace(text, text.length);
    for (let changed = true; changed && cut > 0;) {
      changed = false;
      const start = this.#earliestDanger(text, cut);
      if (start < cut) {
        cut = afterLastWhitespace(text, start);
        changed = true;
      }
    }
    return cut;
  }

  /** The first index before `cut` where an unfinished secret, or a match crossing `cut`, starts. */
  #earliestDanger(text: string, cut: number): number {
    let earliest = cut;
    for (const opening of this.redactor.openings) {
      const found = opening.exec(text);
      if (found !== null && found.index < earliest) earliest = found.index;
    }
    for (const pattern of this.#matchers) {
      pattern.lastIndex = 0;
      for (const match of text.matchAll(pattern)) {
        const end = match.index + match[0].length;
        if (match.index < earliest && (end > cut || end === text.length)) earliest = match.index;
      }
    }
    return earliest;
  }
}

/** The index just after the last whitespace character before `end`; 0 when there is none. */
function afterLastWhitespace(text: string, end: number): number {
  for (let index = end - 1; index >= 0; index--)
    if (whitespace.test(text[index] as string)) return index + 1;
  return 0;
}
