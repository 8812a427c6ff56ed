/** A pseudo-random number in [0, 1) from a 32-bit seed (mulberry32): the same seed, the same draws. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The mean of the values; 0 for none. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/**
 * A percentile bootstrap interval of the mean of `values` (paired differences, say): the mean of
 * `resamples` resamples with replacement, cut at the (1 − level) / 2 tails. Seeded, so the same
 * values give the same interval.
 */
export function bootstrapInterval(
  values: readonly number[],
  {
    level = 0.95,
    resamples = 2000,
    seed = 1,
  }: { level?: number; resamples?: number; seed?: number } = {},
): readonly [number, number] {
  if (values.length === 0) return [0, 0];
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let draw = 0; draw < resamples; draw++) {
    let sum = 0;
    for (let index = 0; index < values.length; index++)
      sum += values[Math.floor(random() * values.length)] as number;
    means[draw] = sum / values.length;
  }
  means.sort();
  const tail = (1 - level) / 2;
  const at = (share: number) =>
    means[Math.min(resamples - 1, Math.max(0, Math.floor(share * resamples)))] as number;
  return [at(tail), at(1 - tail)];
}
