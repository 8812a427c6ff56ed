/** A fake whose script can be checked for unused steps. */
export interface CompletableFake {
  assertComplete(): void;
}

const tracked = new Set<CompletableFake>();
/** Off until the vitest setup turns it on: elsewhere nothing would ever forget the fakes. */
let tracking = false;

/** Starts remembering the fakes made from now on (the vitest setup does this). */
export function startTrackingFakes(): void {
  tracking = true;
}

/** Remembers a fake so that the vitest setup can check it after the test. */
export function trackFake(fake: CompletableFake): void {
  if (tracking) tracked.add(fake);
}

/** The fakes made since the last call, forgotten. */
export function takeTrackedFakes(): CompletableFake[] {
  const fakes = [...tracked];
  tracked.clear();
  return fakes;
}
