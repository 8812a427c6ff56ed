/** A fake whose script can be checked for unused steps. */
export interface CompletableFake {
  assertComplete(): void;
}

const tracked = new Set<CompletableFake>();

/** Remembers a fake so that the vitest setup can check it after the test. */
export function trackFake(fake: CompletableFake): void {
  tracked.add(fake);
}

/** The fakes made since the last call, forgotten. */
export function takeTrackedFakes(): CompletableFake[] {
  const fakes = [...tracked];
  tracked.clear();
  return fakes;
}
