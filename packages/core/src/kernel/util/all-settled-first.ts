/**
 * Every attempt's result, in order, once all have settled. A call that rejects (the run stopped
 * from outside) does not end the round while its neighbours still run: a delegate beside it is
 * still writing its spans, and closing the round under it would leave its starts without ends.
 * The stop reaches every attempt through the run's signal, so they settle soon after; then the
 * first rejection is thrown.
 */
export async function allSettledFirst<T>(attempts: readonly Promise<T>[]): Promise<T[]> {
  if (attempts.length === 1) return [await (attempts[0] as Promise<T>)];
  const settled = await Promise.allSettled(attempts);
  const values: T[] = [];
  for (const result of settled) {
    if (result.status === 'rejected') throw result.reason;
    values.push(result.value);
  }
  return values;
}
