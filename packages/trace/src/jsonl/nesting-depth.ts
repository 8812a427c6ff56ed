/**
 * How deep arrays and objects may nest in a trace line: what the readers, the comparison, the
 * hashes and the renderings handle without running out of stack. Deeper values are refused when
 * read, with the file and line, rather than crashing a command later.
 */
export const maxNestingDepth = 500;

/**
 * Whether the JSON text nests arrays and objects deeper than `limit`. A scan of the text that
 * skips strings; a line shorter than twice the limit cannot, and is not scanned.
 */
export function nestsDeeperThan(text: string, limit = maxNestingDepth): boolean {
  const length = text.length;
  if (length <= 2 * limit) return false;
  let depth = 0;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      index = stringEnd(text, index);
      if (index === -1) return false;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}

/** Where the string opened at `start` ends (its closing quote), or -1 when it does not. */
function stringEnd(text: string, start: number): number {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return -1;
    let before = at - 1;
    while (text.charCodeAt(before) === 0x5c) before--;
    // An even number of backslashes before the quote: it is not escaped.
    if ((at - 1 - before) % 2 === 0) return at;
  }
}
