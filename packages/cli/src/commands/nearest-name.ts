/** How many one-letter edits (insert, delete, replace) turn `a` into `b`; case counts as one. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const same =
        a[i - 1] === b[j - 1] ? 0 : a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0.5 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + same,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The known name `name` is most likely a misspelling of: within a third of its length in edits
 * (a difference of case alone counts half); undefined when none is that near.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const each of known) {
    const distance = editDistance(name, each);
    if (distance > 0 && (best === undefined || distance < best.distance))
      best = { name: each, distance };
  }
  return best !== undefined && best.distance <= Math.max(1, best.name.length / 3)
    ? best.name
    : undefined;
}
